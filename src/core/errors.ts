/** Every error Switchyard raises on purpose carries one of these codes. */
export type SwitchyardErrorCode =
  | 'invalid-input'
  | 'invalid-manifest'
  | 'duplicate-lane'
  | 'unsupported-api-version'
  | 'unknown-lane'
  | 'unknown-task'
  | 'unknown-run'
  | 'illegal-transition'
  | 'not-a-git-repo'
  | 'git-failed'
  | 'store-corrupt'
  | 'store-newer-version'
  | 'store-locked'
  | 'journal-corrupt'
  | 'journal-missing'
  | 'journal-diverged'
  | 'lease-held'
  | 'secret-missing'
  | 'secret-unavailable'
  | 'backend-config'
  | 'backend-unreachable'
  | 'backend-migrated'
  | 'working-tree-dirty'
  | 'merge-conflict'
  | 'untrusted-workspace';

export class SwitchyardError extends Error {
  override readonly name: string = 'SwitchyardError';
  constructor(
    readonly code: SwitchyardErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isSwitchyardError(value: unknown, code?: SwitchyardErrorCode): value is SwitchyardError {
  return value instanceof SwitchyardError && (code === undefined || value.code === code);
}

/** One line for a human: the message of an Error, or the value itself. */
export function errorMessage(value: unknown): string {
  if (value instanceof Error) return value.message;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

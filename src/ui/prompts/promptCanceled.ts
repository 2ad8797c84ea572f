/** Thrown when the user dismisses a prompt; the command ends quietly. */
export class PromptCanceled extends Error {
  override readonly name = 'PromptCanceled';
  constructor() {
    super('canceled by the user');
  }
}

export function isPromptCanceled(value: unknown): value is PromptCanceled {
  return value instanceof PromptCanceled;
}

/** The value, or PromptCanceled when the prompt was dismissed. */
export function required<T>(value: T | undefined): T {
  if (value === undefined) throw new PromptCanceled();
  return value;
}

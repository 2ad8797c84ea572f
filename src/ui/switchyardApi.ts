/**
 * The public API of the Switchyard extension, for other extensions that add
 * lanes; its types are the public API's (src/api.ts, switchyard.d.ts).
 * Modelled on the git extension's API:
 *
 * ```ts
 * const switchyard = vscode.extensions.getExtension<SwitchyardExtension>('switchyard.switchyard')!;
 * const api = (await switchyard.activate()).getAPI(1);
 * context.subscriptions.push(api.registerLane(myLane));
 * ```
 */
import { SwitchyardError } from '../core/errors';
import type { SwitchyardAPI } from '../api';

export type { SwitchyardAPI, SwitchyardExtension } from '../api';

export const SUPPORTED_API_VERSIONS: readonly number[] = [1];

/** `getAPI(n)` for a version this Switchyard does not have. */
export class UnsupportedApiVersionError extends SwitchyardError {
  override readonly name = 'UnsupportedApiVersionError';
  constructor(
    readonly requested: unknown,
    readonly supported: readonly number[] = SUPPORTED_API_VERSIONS,
  ) {
    super(
      'unsupported-api-version',
      `Switchyard API version ${String(requested)} is not supported; supported versions: ${supported.join(', ')}`,
    );
  }
}

/** The API of `version`, or an UnsupportedApiVersionError listing the supported ones. */
export function apiForVersion(version: unknown, v1: SwitchyardAPI): SwitchyardAPI {
  if (version !== 1) throw new UnsupportedApiVersionError(version);
  return v1;
}

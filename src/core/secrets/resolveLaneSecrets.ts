import { errorMessage, isSwitchyardError } from '../errors';
import type { LaneManifest } from '../model/laneManifest';
import type { FailureCode } from '../model/failureCodes';
import type { Redactor } from './redactor';
import type { SecretSource } from './secretSource';

export type SecretResolution =
  | { ok: true; secrets: Record<string, string> }
  | { ok: false; code: FailureCode; reason: string };

/**
 * Resolves every secret a lane declares before the lane starts. A missing
 * secret or a failing source stops the run here, with the source's own error,
 * instead of an opaque 401 from the vendor later. Values go into `redactor`.
 */
export async function resolveLaneSecrets(manifest: LaneManifest, source: SecretSource, redactor: Redactor): Promise<SecretResolution> {
  const secrets: Record<string, string> = {};
  for (const name of manifest.requiredSecrets) {
    let value: string | undefined;
    try {
      value = await source.get(manifest.id, name);
    } catch (error) {
      const code: FailureCode = 'secret-unavailable';
      const why = isSwitchyardError(error) ? error.message : errorMessage(error);
      return { ok: false, code, reason: `lane "${manifest.id}" could not get ${name}: ${redactor.redact(why)}` };
    }
    if (!value) {
      return { ok: false, code: 'secret-missing', reason: `lane "${manifest.id}" needs ${name}, which is not set: ${source.howToSet(manifest.id, name)}` };
    }
    redactor.add(name, value);
    secrets[name] = value;
  }
  return { ok: true, secrets };
}

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
 * instead of an opaque 401 from the vendor later. Optional secrets (a key a
 * local server does not need) are passed on when set and skipped when not.
 * Values go into `redactor`.
 */
export async function resolveLaneSecrets(
  manifest: LaneManifest,
  source: SecretSource,
  redactor: Redactor,
): Promise<SecretResolution> {
  const secrets: Record<string, string> = {};
  const wanted = [
    ...manifest.requiredSecrets.map((name) => ({ name, required: true })),
    ...(manifest.optionalSecrets ?? [])
      .filter((name) => !manifest.requiredSecrets.includes(name))
      .map((name) => ({ name, required: false })),
  ];
  for (const { name, required } of wanted) {
    let value: string | undefined;
    try {
      value = await source.get(manifest.id, name);
    } catch (error) {
      // A configured source that fails stops the run even for an optional secret: the user meant to set it.
      const code: FailureCode = 'secret-unavailable';
      const why = isSwitchyardError(error) ? error.message : errorMessage(error);
      return { ok: false, code, reason: `lane "${manifest.id}" could not get ${name}: ${redactor.redact(why)}` };
    }
    if (!value) {
      if (!required) continue;
      return {
        ok: false,
        code: 'secret-missing',
        reason: `lane "${manifest.id}" needs ${name}, which is not set: ${source.howToSet(manifest.id, name)}`,
      };
    }
    redactor.add(name, value);
    secrets[name] = value;
  }
  return { ok: true, secrets };
}

import type { FailureCode } from '../model/failureCodes';
import type { LaneManifest } from '../model/laneManifest';
import { classify, type ErrorRule } from '../retry/classifyError';
import { BUILTIN_ERROR_RULES } from '../retry/errorRules';

/** What fixes a failed run, when it is a matter of setup: a lane setting, or a secret (an API key). */
export type FailureFix = { kind: 'setting' } | { kind: 'secret'; secret: string };

const SETTING_RULES = new Set(['lane-misconfigured', 'unknown-option', 'command-not-found']);
const KEY_RULES = new Set(['key-missing', 'auth-invalid', 'not-logged-in']);

/**
 * The fix a failure points to: a missing secret or a refused/missing key → that secret (the one the reason names,
 * else the lane's first declared one), when the lane declares one; a misconfigured lane, an unknown option or a
 * command not found → the lane's settings. Anything else has no setup fix (undefined).
 */
export function failureFix(
  code: FailureCode | undefined,
  reason: string,
  manifest: LaneManifest | undefined,
  rules: readonly ErrorRule[] = BUILTIN_ERROR_RULES,
): FailureFix | undefined {
  const declared = manifest ? [...manifest.requiredSecrets, ...manifest.optionalSecrets] : [];
  const named = declared.find((s) => reason.includes(s)) ?? declared[0];
  if (code === 'secret-missing' || code === 'secret-unavailable')
    return named ? { kind: 'secret', secret: named } : undefined;
  if (code === 'lane-misconfigured') return { kind: 'setting' };
  if (code !== 'lane-exit' && code !== 'lane-crash' && code !== 'provider-rejected') return undefined;
  const { rule } = classify(reason, rules);
  if (KEY_RULES.has(rule)) return named ? { kind: 'secret', secret: named } : { kind: 'setting' };
  if (SETTING_RULES.has(rule)) return { kind: 'setting' };
  return undefined;
}

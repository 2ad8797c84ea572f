import { breakerAfterFailure, breakerAfterSuccess } from '../scheduler/circuitBreaker';
import type { FailureCode } from '../model/failureCodes';
import type { ProjectState } from '../store/projectState';

/**
 * Codes that say nothing about a lane's health: its breaker ignores them.
 * `interrupted` and `journal-missing` are host faults (the owning process
 * died, the journal was lost), not the lane's.
 */
export const BREAKER_NEUTRAL: ReadonlySet<FailureCode> = new Set<FailureCode>([
  'verify-failed',
  'changes-requested',
  'review-failed',
  'guard-blocked',
  'policy-violation',
  'merge-conflict',
  'integration-refused',
  'integration-error',
  'canceled',
  'lease-lost',
  'interrupted',
  'journal-missing',
  'workspace-setup-failed',
]);

/**
 * Feeds a run's end into its lane's stored breaker: `code` for a failure
 * that says something about the lane, undefined for a lane that did its
 * work. Returns a line when the breaker changed state.
 */
export function updateBreaker(
  state: ProjectState,
  lane: string,
  code: FailureCode | undefined,
  now: number,
): string | undefined {
  if (code !== undefined && BREAKER_NEUTRAL.has(code)) return undefined;
  const settings = state.settings.breaker;
  const before = state.breakers[lane];
  const after =
    code === undefined ? breakerAfterSuccess(before, now, settings) : breakerAfterFailure(before, code, now, settings);
  if (!after) return undefined;
  state.breakers[lane] = after;
  if (before?.state === after.state) return undefined;
  if (after.state === 'open') {
    return before?.state === 'half-open'
      ? `breaker on lane ${lane} OPEN again: the probe failed (${code})`
      : `breaker on lane ${lane} OPEN: ${settings.failures} × ${code} in a row within ${Math.round(settings.windowMs / 1000)} s; no new runs on it for ` +
          `${Math.round(settings.cooldownMs / 1000)} s`;
  }
  if (after.state === 'closed')
    return `breaker on lane ${lane} closed after ${settings.closeAfter} successful probe run(s)`;
  return undefined;
}

import type { BreakerState } from '../model/breakerState';
import type { BreakerSettings } from '../store/orchestratorSettings';

/**
 * Circuit breaker logic, pure: functions of a stored breaker, a time and the
 * project's breaker settings, returning the next breaker. Keyed by lane (or
 * `lane:tool`) by the caller.
 *
 * closed → open: `failures` failures with the same code in a row, all within
 * `windowMs`. open → half-open: after `cooldownMs`, one probe run may start.
 * half-open: a failure opens it again; each success doubles how many runs
 * may be in flight (1, 2, 4 …); `closeAfter` successes in a row close it.
 */
export type BreakerVerdict =
  | { allow: true; probe: boolean; next?: BreakerState }
  | { allow: false; reason: string; retryAt?: number };

export function closedBreaker(now: number): BreakerState {
  return { state: 'closed', since: iso(now), recent: [], successes: 0, opened: 0 };
}

export function breakerAfterFailure(
  current: BreakerState | undefined,
  code: string,
  now: number,
  settings: BreakerSettings,
): BreakerState {
  const b = current ?? closedBreaker(now);
  if (b.state === 'half-open')
    return { ...b, state: 'open', since: iso(now), code, recent: [], successes: 0, opened: b.opened + 1 };
  if (b.state === 'open') return { ...b, code };
  const recent = [...b.recent, { code, at: iso(now) }]
    .filter((f) => f.code === code && now - Date.parse(f.at) <= settings.windowMs)
    .slice(-settings.failures);
  if (recent.length >= settings.failures)
    return { ...b, state: 'open', since: iso(now), code, recent: [], successes: 0, opened: b.opened + 1 };
  return { ...b, recent };
}

export function breakerAfterSuccess(
  current: BreakerState | undefined,
  now: number,
  settings: BreakerSettings,
): BreakerState | undefined {
  if (!current) return undefined;
  if (current.state === 'closed') return current.recent.length ? { ...current, recent: [] } : current;
  if (current.state === 'open') return current;
  const successes = current.successes + 1;
  if (successes >= settings.closeAfter)
    return { ...current, state: 'closed', since: iso(now), recent: [], successes: 0 };
  return { ...current, successes };
}

/** May a run start on this breaker's lane now, with `inFlight` of its runs already going? */
export function breakerAllows(
  current: BreakerState | undefined,
  inFlight: number,
  now: number,
  settings: BreakerSettings,
): BreakerVerdict {
  if (!current || current.state === 'closed') return { allow: true, probe: false };
  if (current.state === 'open') {
    const until = Date.parse(current.since) + settings.cooldownMs;
    if (now < until)
      return {
        allow: false,
        reason: `breaker open since ${current.since} (${current.code ?? 'failures'}); probe after ${iso(until)}`,
        retryAt: until,
      };
    if (inFlight > 0)
      return { allow: false, reason: `breaker half-open: waiting for ${inFlight} run(s) in flight before the probe` };
    return { allow: true, probe: true, next: { ...current, state: 'half-open', since: iso(now), successes: 0 } };
  }
  const allowance = halfOpenAllowance(current);
  if (inFlight >= allowance)
    return {
      allow: false,
      reason: `breaker half-open: ${inFlight}/${allowance} probe run(s) in flight (${current.successes} success(es) so far)`,
    };
  return { allow: true, probe: true };
}

/** How many runs a half-open breaker lets through at once: 1, 2, 4 … by successes in a row. */
export function halfOpenAllowance(b: BreakerState): number {
  return 2 ** Math.min(b.successes, 10);
}

export function describeBreaker(key: string, b: BreakerState): string {
  if (b.state === 'closed')
    return `${key}: closed${b.recent.length ? ` (${b.recent.length} recent ${b.recent[b.recent.length - 1]!.code})` : ''}`;
  if (b.state === 'open') return `${key}: OPEN since ${b.since} (${b.code ?? 'failures'})`;
  return `${key}: half-open since ${b.since} (${b.successes} success(es), up to ${halfOpenAllowance(b)} at once)`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

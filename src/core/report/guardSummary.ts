import type { GuardEvent, GuardVerdict } from '../guards/guardLog';

export interface GuardSummary {
  guard: string;
  /** The newest verdict of this guard. */
  last: GuardEvent;
  counts: Record<GuardVerdict, number>;
}

/**
 * Per guard: its latest verdict and how many of each it has given, in the
 * order guards last spoke (newest first). For the tree view and
 * `switchyard status`; pass `runId` to see one run's guards only.
 */
export function summarizeGuards(events: readonly GuardEvent[], runId?: string): GuardSummary[] {
  const byGuard = new Map<string, GuardSummary>();
  for (const event of events) {
    if (runId !== undefined && event.runId !== runId) continue;
    const entry = byGuard.get(event.guard) ?? {
      guard: event.guard,
      last: event,
      counts: { pass: 0, block: 0, warn: 0, error: 0 },
    };
    entry.counts[event.verdict]++;
    if (event.ts >= entry.last.ts) entry.last = event;
    byGuard.set(event.guard, entry);
  }
  // ISO timestamps order as strings (a plain compare: localeCompare would load the collator, ~5 ms, for nothing).
  return [...byGuard.values()].sort((a, b) => (a.last.ts < b.last.ts ? 1 : a.last.ts > b.last.ts ? -1 : 0));
}

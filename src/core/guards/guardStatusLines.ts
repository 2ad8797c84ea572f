import { errorMessage } from '../errors';
import { readGuardEvents, type GuardEvent } from './guardLog';
import { formatGuardEvent } from './runGuard';
import { summarizeGuards } from './guardSummary';

/**
 * The recorded guard verdicts, or the reason they cannot be read: status and the tree show either, never fail on it.
 */
export async function loadGuardEvents(root: string, limit = 1_000): Promise<{ events: GuardEvent[]; error?: string }> {
  try {
    return { events: await readGuardEvents(root, { limit }) };
  } catch (error) {
    return { events: [], error: errorMessage(error) };
  }
}

/** One line per guard: its latest verdict with evidence, and its verdict counts. */
export function guardStatusLines(events: readonly GuardEvent[], runId?: string): string[] {
  return summarizeGuards(events, runId).map((s) => {
    const counts = Object.entries(s.counts)
      .filter(([, n]) => n > 0)
      .map(([verdict, n]) => `${n} ${verdict}`)
      .join(', ');
    return `${formatGuardEvent(s.last)}  [${counts}]`;
  });
}

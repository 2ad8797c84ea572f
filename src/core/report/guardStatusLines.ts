import { errorMessage } from '../errors';
import { readNewestGuardEvents, type GuardEvent } from '../guards/guardLog';
import { formatGuardEvent } from '../guards/runGuard';
import { summarizeGuards } from './guardSummary';

/** How many of the newest verdicts status and the tree summarize (about the last 250 runs' guards). */
export const GUARD_SUMMARY_LIMIT = 500;

/** The newest recorded guard verdicts (`older`: the log holds more), or the reason they cannot be read. */
export interface LoadedGuardEvents {
  events: GuardEvent[];
  older?: boolean;
  error?: string;
}

/**
 * The newest `limit` recorded guard verdicts, read from the end of the log, or the reason they cannot be read: status
 * and the tree show either, never fail on it.
 */
export async function loadGuardEvents(root: string, limit = GUARD_SUMMARY_LIMIT): Promise<LoadedGuardEvents> {
  try {
    const { events, older } = await readNewestGuardEvents(root, limit);
    return { events, ...(older ? { older } : {}) };
  } catch (error) {
    return { events: [], error: errorMessage(error) };
  }
}

/** What the guard summary's counts are over: all verdicts, or the newest `n` of a longer log. */
export function guardCountsOver(loaded: LoadedGuardEvents): string {
  // Thousands separated by hand: toLocaleString would load ICU's number formats (~5 ms of a CLI command).
  const n = String(loaded.events.length).replace(/\B(?=(\d{3})+$)/g, ',');
  return loaded.older ? `counts over the newest ${n} verdicts` : `counts over all ${n} verdicts`;
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

import type { ResumeCounts } from '../../journal/durableCalls';
import type { JournalEvent } from '../../journal/journalEvent';
import { resumeCountsOf } from '../../journal/resumeCounts';
import { Usage } from '../../model/laneEvent';
import type { Run } from '../../model/run';
import { addUsage, findRun } from '../../transitions/finishRun';
import type { RunContext } from '../runContext';
import { eventsPath, readRunLog, type RunLogLine } from '../../store/runFiles';

export interface RecoveredFigures {
  /** The lane's paid calls: the journal's outcomes, or else the lane's usage events. */
  usage?: Usage;
  resumeCounts?: ResumeCounts;
  /** When the run last did something (its last journal or log line, or its merge). */
  endedAt?: number;
}

/**
 * What a run whose owner died had spent and done, read from what it left:
 * usage from its journal (each completed call once), or from the lane's
 * `usage` events when it journaled none (a CLI lane); resume counts over
 * all its resumes; and when it last did something, for its duration.
 * `reachedEnd`: its lane got through (its merge is recorded).
 */
export function recoveredFigures(
  run: Run,
  journal: readonly JournalEvent[],
  log: readonly RunLogLine[],
  reachedEnd: boolean,
): RecoveredFigures {
  let usage: Usage | undefined;
  for (const e of journal) if (e.type === 'outcome' && e.usage) usage = addUsage(usage, e.usage);
  if (!usage) {
    for (const line of log) {
      const event = line.type === 'lane' ? (line.event as { type?: unknown; usage?: unknown } | undefined) : undefined;
      const parsed = event?.type === 'usage' ? Usage.safeParse(event.usage) : undefined;
      if (parsed?.success) usage = addUsage(usage, parsed.data);
    }
  }
  const times = [...journal.map((e) => e.ts), ...log.map((l) => l.ts)]
    .map((ts) => (typeof ts === 'string' ? Date.parse(ts) : NaN))
    .filter((t) => Number.isFinite(t) && t >= Date.parse(run.startedAt));
  const resumeCounts = resumeCountsOf(journal, reachedEnd);
  return {
    ...(usage ? { usage } : {}),
    ...(resumeCounts ? { resumeCounts } : {}),
    ...(times.length ? { endedAt: Math.max(...times) } : {}),
  };
}

/**
 * After recovery finished a run whose owner died (merged, or interrupted):
 * records its figures from its journal and log, so its paid calls count,
 * its resume counts cover every resume and its duration ends where its work
 * did (not when recovery noticed). Returns a line for the run's log.
 */
export async function recordRecoveredFigures(
  ctx: RunContext,
  runId: string,
  reachedEnd: boolean,
  mergedAt?: string,
): Promise<string> {
  const journal = await ctx.journals.read(runId).catch(() => undefined);
  const log = await readRunLog(eventsPath(ctx.root, runId));
  const line = await ctx.store.update((state) => {
    const run = findRun(state, runId);
    const figures = recoveredFigures(run, journal?.events ?? [], log, reachedEnd);
    const merged = mergedAt ? Date.parse(mergedAt) : NaN;
    const endedAt = Math.max(figures.endedAt ?? -Infinity, Number.isFinite(merged) ? merged : -Infinity);
    if (figures.usage) run.usage = addUsage(figures.usage, run.reviewUsage);
    if (figures.resumeCounts) run.resumeCounts = figures.resumeCounts;
    if (Number.isFinite(endedAt)) {
      run.endedAt = new Date(endedAt).toISOString();
      run.durationMs = endedAt - Date.parse(run.startedAt);
    }
    const cost = run.usage
      ? `$${run.usage.costUsd.toFixed(4)} (${run.usage.inputTokens}+${run.usage.outputTokens} tokens)`
      : 'no usage';
    const c = figures.resumeCounts;
    const resumes = c
      ? `; over its resumes: replayed ${c.replayed}, re-sent ${c.resent}, re-run ${c.rerun}, uncertain ${c.uncertain}`
      : '';
    return (
      `recorded from the journal and log of ${runId}: ` +
      `${cost}${run.durationMs !== undefined ? `, ${(run.durationMs / 1000).toFixed(1)} s of work` : ''}${resumes}`
    );
  });
  return line;
}

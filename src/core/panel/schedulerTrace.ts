import type { TraceLine } from '../store/traceLog';
import type { Scheduler, TraceDecision } from './panelProtocol';

/** How many scheduler decisions the panel lists. */
export const SCHEDULER_DECISIONS = 12;

/**
 * The scheduler's side of `.switchyard/trace.jsonl` for the panel: its
 * latest decisions not about one task (backpressure, breakers, waits), the
 * last backpressure decision, the latest per-tick signals and the last drain
 * line. `undefined` lines (no trace file yet) is `available: false`. Lines
 * are read defensively: a field of the wrong type is left out.
 */
export function schedulerFromTrace(lines: readonly TraceLine[] | undefined): Scheduler {
  if (!lines) return { available: false };
  const decisions: TraceDecision[] = [];
  let lastBackpressure: TraceDecision | null = null;
  let signals: Extract<Scheduler, { available: true }>['signals'] = null;
  let drain: Extract<Scheduler, { available: true }>['drain'] = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.type === 'decision') {
      const d = traceDecision(line);
      if (!d) continue;
      if (!lastBackpressure && d.kind === 'backpressure') lastBackpressure = d;
      if (d.task === undefined && decisions.length < SCHEDULER_DECISIONS) decisions.push(d);
    } else if (line.type === 'signals' && !signals) {
      signals = signalsOf(line);
    } else if (line.type === 'drain' && !drain && typeof line.message === 'string') {
      drain = { ts: String(line.ts), kind: typeof line.kind === 'string' ? line.kind : 'drain', message: line.message };
    }
    if (lastBackpressure && signals && drain && decisions.length >= SCHEDULER_DECISIONS) break;
  }
  return { available: true, decisions, lastBackpressure, signals, drain };
}

/** A trace `decision` line in the panel's shape, or undefined when it has no message. */
export function traceDecision(line: TraceLine): TraceDecision | undefined {
  if (typeof line.message !== 'string' || typeof line.ts !== 'string') return undefined;
  return {
    ts: line.ts,
    kind: typeof line.kind === 'string' ? line.kind : 'decision',
    message: line.message,
    ...(typeof line.task === 'string' ? { task: line.task } : {}),
    ...(typeof line.run === 'string' ? { run: line.run } : {}),
  };
}

function signalsOf(line: TraceLine): Extract<Scheduler, { available: true }>['signals'] {
  const stageWait: Record<string, { waiting: number; oldestMs: number }> = {};
  const raw = line.stageWait;
  if (raw && typeof raw === 'object') {
    for (const [stage, w] of Object.entries(raw as Record<string, unknown>)) {
      const { waiting, oldestMs } = (w ?? {}) as Record<string, unknown>;
      if (Number.isInteger(waiting) && typeof oldestMs === 'number')
        stageWait[stage] = { waiting: waiting as number, oldestMs };
    }
  }
  const streak = line.failureStreak as Record<string, unknown> | undefined;
  return {
    ts: String(line.ts),
    stageWait,
    ...(streak && typeof streak.code === 'string' && Number.isInteger(streak.count)
      ? { failureStreak: { code: streak.code, count: streak.count as number } }
      : {}),
    ...(typeof line.burnRateUsdPerHour === 'number' ? { burnRateUsdPerHour: line.burnRateUsdPerHour } : {}),
  };
}

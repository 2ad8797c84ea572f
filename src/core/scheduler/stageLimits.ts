import { STAGES, isStage, perStage, type Stage } from '../model/stages';
import type { TaskState } from '../model/taskStates';
import type { WipLimits } from '../store/orchestratorSettings';

/** Stages after RUNNING; when one is full, no new run starts (backpressure). */
export const DOWNSTREAM: readonly Stage[] = ['VERIFYING', 'REVIEWING', 'INTEGRATING', 'AWAITING_CI'];

export type StartVerdict = { ok: true; free: number } | { ok: false; reason: string; backpressure: boolean };

/**
 * WIP accounting: how many tasks are in each stage, and whether a new run
 * may start. Updated by task state events, never by scanning.
 */
export class StageCounts {
  readonly counts: Record<Stage, number> = perStage(0);
  /** The most each stage held at once since this object was made. */
  readonly peak: Record<Stage, number> = perStage(0);

  constructor(readonly limits: WipLimits) {}

  private verdict: StartVerdict | undefined;

  move(from: TaskState | undefined, to: TaskState): void {
    if (from && isStage(from)) {
      this.counts[from] -= 1;
      this.verdict = undefined;
    }
    if (isStage(to)) {
      this.counts[to] += 1;
      this.verdict = undefined;
      if (this.counts[to] > this.peak[to]) this.peak[to] = this.counts[to];
    }
  }

  hasRoom(stage: Stage): boolean {
    return this.counts[stage] < this.limits[stage];
  }

  /** Whether a new run may start, and how many: backpressure from a full downstream stage comes first. */
  startVerdict(): StartVerdict {
    // Asked every tick; recomputed only after a count changed.
    this.verdict ??= startVerdict(this.counts, this.limits);
    return this.verdict;
  }

  describe(): string {
    return describeUsage(this.counts, this.limits);
  }
}

export function startVerdict(counts: Record<Stage, number>, limits: WipLimits): StartVerdict {
  for (const stage of DOWNSTREAM) {
    if (counts[stage] >= limits[stage]) {
      return {
        ok: false,
        backpressure: true,
        reason: `backpressure: ${stage} is full (${counts[stage]}/${limits[stage]}), so no new run starts`,
      };
    }
  }
  const free = limits.RUNNING - counts.RUNNING;
  if (free <= 0)
    return { ok: false, backpressure: false, reason: `RUNNING is full (${counts.RUNNING}/${limits.RUNNING})` };
  return { ok: true, free };
}

/** `RUNNING 1/4 · VERIFYING 2/2 (full) · REVIEWING 0/3 · INTEGRATING 0/1` */
export function describeUsage(counts: Record<Stage, number>, limits: WipLimits): string {
  return STAGES.map((s) => `${s} ${counts[s]}/${limits[s]}${counts[s] >= limits[s] ? ' (full)' : ''}`).join(' · ');
}

/** Stage usage computed from task states (for status views that hold the whole state anyway). */
export function countStages(states: Iterable<TaskState>): Record<Stage, number> {
  const counts: Record<Stage, number> = perStage(0);
  for (const s of states) if (isStage(s)) counts[s] += 1;
  return counts;
}

import type { BreakerState } from '../model/breakerState';
import { STAGES, type Stage } from '../model/taskStates';
import { describeBreaker } from '../scheduler/circuitBreaker';
import { countStages, describeUsage, startVerdict } from '../scheduler/stageLimits';
import type { ProjectState } from '../store/projectState';

export interface PipelineStatus {
  stages: { stage: Stage; count: number; limit: number; full: boolean }[];
  /** `RUNNING 1/4 · VERIFYING 2/2 (full) · …` */
  usage: string;
  /** Why no new run would start now, when a downstream stage is full. */
  backpressure?: string;
  breakers: { key: string; state: BreakerState['state']; line: string }[];
}

/** Stage WIP usage, backpressure and breakers, as the status views show them (from the stored state). */
export function pipelineStatus(state: ProjectState): PipelineStatus {
  const counts = countStages(state.tasks.map((t) => t.state));
  const limits = state.settings.wip;
  const verdict = startVerdict(counts, limits);
  return {
    stages: STAGES.map((stage) => ({
      stage,
      count: counts[stage],
      limit: limits[stage],
      full: counts[stage] >= limits[stage],
    })),
    usage: describeUsage(counts, limits),
    ...(!verdict.ok && verdict.backpressure ? { backpressure: verdict.reason } : {}),
    breakers: Object.entries(state.breakers).map(([key, b]) => ({
      key,
      state: b.state,
      line: describeBreaker(key, b),
    })),
  };
}

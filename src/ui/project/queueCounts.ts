import { ACTIVE_TASK_STATES } from '../../core/model/taskStates';
import type { ProjectState } from '../../core/store/projectState';

export interface QueueCounts {
  /** Tasks holding a run or stage slot: RUNNING, VERIFYING, REVIEWING, INTEGRATING. */
  running: number;
  /** READY tasks waiting for the queue runner. */
  queued: number;
}

export function queueCounts(state: ProjectState | undefined): QueueCounts {
  const tasks = state?.tasks ?? [];
  return {
    running: tasks.filter((t) => ACTIVE_TASK_STATES.includes(t.state)).length,
    queued: tasks.filter((t) => t.state === 'READY').length,
  };
}

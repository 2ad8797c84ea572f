import { STAGES } from '../../core/model/stages';

export interface QueueCounts {
  /** Tasks holding a run or stage slot: RUNNING, VERIFYING, REVIEWING, INTEGRATING. */
  running: number;
  /** READY tasks waiting for the queue runner. */
  queued: number;
}

/** The counts of a project state (or of the state file's tasks as the status bar's light reader sees them). */
export function queueCounts(state: { readonly tasks: readonly { readonly state: string }[] } | undefined): QueueCounts {
  const tasks = state?.tasks ?? [];
  const active: readonly string[] = STAGES;
  return {
    running: tasks.filter((t) => active.includes(t.state)).length,
    queued: tasks.filter((t) => t.state === 'READY').length,
  };
}

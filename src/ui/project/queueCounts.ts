import { STAGES } from '../../core/model/stages';

export interface QueueCounts {
  /** Tasks holding a run or stage slot: RUNNING, VERIFYING, REVIEWING, INTEGRATING. */
  running: number;
  /** Tasks whose pull request waits for its required checks and merge (AWAITING_CI): no run of theirs is going. */
  awaitingCi: number;
  /** READY tasks waiting for the queue runner. */
  queued: number;
}

/** The counts of a project state (or of the state file's tasks as the status bar's light reader sees them). */
export function queueCounts(state: { readonly tasks: readonly { readonly state: string }[] } | undefined): QueueCounts {
  const tasks = state?.tasks ?? [];
  const running: readonly string[] = STAGES.filter((s) => s !== 'AWAITING_CI');
  return {
    running: tasks.filter((t) => running.includes(t.state)).length,
    awaitingCi: tasks.filter((t) => t.state === 'AWAITING_CI').length,
    queued: tasks.filter((t) => t.state === 'READY').length,
  };
}

/** `N running, M queued`, then `, K waiting for CI` when a pull request waits (absent, not "0 waiting for CI"). */
export function describeQueueCounts({ running, awaitingCi, queued }: QueueCounts): string {
  return `${running} running, ${queued} queued${awaitingCi ? `, ${awaitingCi} waiting for CI` : ''}`;
}

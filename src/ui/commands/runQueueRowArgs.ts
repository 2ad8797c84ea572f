import { TaskNode } from '../views/taskTreeNodes';
import type { TreeRow } from './treeRowArgs';

/**
 * Run Queue called with a Tasks tree row (the title button while a row has focus): a READY task row runs that task;
 * any other row (a state, a run, a finished task) runs the whole queue.
 */
export function runQueueRowArgs(row: TreeRow): unknown[] {
  return row instanceof TaskNode && row.task.state === 'READY' ? [{ taskIds: [row.task.id] }] : [];
}

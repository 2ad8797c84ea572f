import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import type { TaskState } from '../../core/model/taskStates';
import { pickTask } from '../prompts/pickTask';
import { PromptCanceled } from '../prompts/promptCanceled';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';
import { TaskNode } from '../views/taskTreeNodes';
import { confirmModal } from '../views/showMessage';

/** What the picker offers, in this order: the tasks at work (a running one first), then the queued ones. */
export const CANCEL_PICK_STATES: readonly TaskState[] = [
  'RUNNING',
  'VERIFYING',
  'REVIEWING',
  'INTEGRATING',
  'AWAITING_CI',
  'READY',
];
export const CONFIRM_CANCEL = 'Cancel Task';
export const KEEP_RUNNING = 'Keep Running';
export const KEEP_QUEUED = 'Keep in Queue';

/**
 * `switchyard.cancelTask(taskId | item)` → the canceled Task. A running run is aborted; a late result is kept as stale.
 * Without an id: a picker of the running and ready tasks (running first, pre-selected), then a confirmation (also
 * asked when a tree row is canceled).
 */
export async function cancelTask(deps: CommandDeps, arg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  let id = taskIdFrom(arg);
  // A person's pick (the picker, a tree row) is confirmed; an id handed over by a program or the panel is not.
  if (!id || arg instanceof TaskNode) {
    const state = await project.state();
    id ??= await pickTask(state, 'Cancel which task? (running tasks first)', CANCEL_PICK_STATES, true);
    const task = await project.tasks.get(id);
    const running = CANCEL_PICK_STATES.includes(task.state) && task.state !== 'READY';
    const confirmed = await confirmModal(
      `Cancel ${task.id} · ${task.spec.title} (${task.state})?`,
      running
        ? 'Its run is stopped; what it changed stays on its branch, and a result that still arrives is kept apart. Retry Task puts it back in the queue.'
        : 'It leaves the queue; Retry Task puts it back.',
      CONFIRM_CANCEL,
      running ? KEEP_RUNNING : KEEP_QUEUED,
    );
    if (!confirmed) throw new PromptCanceled();
  }
  const task = await project.tasks.cancel(id);
  vscode.window.setStatusBarMessage(`Switchyard: canceled ${task.id}`, 4_000);
  return task;
}

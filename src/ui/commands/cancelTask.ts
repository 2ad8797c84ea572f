import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { TASK_STATES, canTransitionTask } from '../../core/model/taskStates';
import { pickTask } from '../prompts/pickTask';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

const CANCELABLE = TASK_STATES.filter((s) => canTransitionTask(s, 'CANCELED'));

/**
 * `switchyard.cancelTask(taskId | item)` → the canceled Task. A running run is aborted; a late result is kept as stale.
 */
export async function cancelTask(deps: CommandDeps, arg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  const id = taskIdFrom(arg) ?? (await pickTask(await project.state(), 'Cancel which task?', CANCELABLE));
  const task = await project.cancelTask(id);
  vscode.window.setStatusBarMessage(`Switchyard: canceled ${task.id}`, 4_000);
  return task;
}

import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { pickTask } from '../prompts/pickTask';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.approveTask(taskId | item)` → the Task: a DRAFT task becomes READY, so the queue may start it (as
 * `switchyard approve` does). Nothing starts here: Run Queue or Run Task does that. Without an argument it asks which
 * draft.
 */
export async function approveTask(deps: CommandDeps, arg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  const id = taskIdFrom(arg) ?? (await pickTask(await project.state(), 'Approve which draft?', ['DRAFT']));
  const task = await project.tasks.approve(id);
  vscode.window.setStatusBarMessage(`Switchyard: ${task.id} approved, ${task.state}`, 4_000);
  return task;
}

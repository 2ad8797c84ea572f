import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { pickTask } from '../prompts/pickTask';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.retryTask(taskId | item)` → the Task, READY again with a fresh attempt budget (FAILED or CANCELED only).
 */
export async function retryTask(deps: CommandDeps, arg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  const id = taskIdFrom(arg) ?? (await pickTask(await project.state(), 'Retry which task?', ['FAILED', 'CANCELED']));
  const task = await project.retryTask(id);
  vscode.window.setStatusBarMessage(`Switchyard: ${task.id} is READY again`, 4_000);
  return task;
}

import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { startTaskRun } from '../progress/startTaskRun';
import { pickTask } from '../prompts/pickTask';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.retryTask(taskId | item)` → the Task, back in the queue with a fresh attempt budget (FAILED or CANCELED
 * only) and started at once, as the panel's Retry does; resolves once its run started (the Task as stored then).
 */
export async function retryTask(deps: CommandDeps, arg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  const id = taskIdFrom(arg) ?? (await pickTask(await project.state(), 'Retry which task?', ['FAILED', 'CANCELED']));
  const task = await project.tasks.retry(id);
  if (task.state !== 'READY') {
    vscode.window.setStatusBarMessage(`Switchyard: ${task.id} is ${task.state} again`, 4_000);
    return task;
  }
  vscode.window.setStatusBarMessage(`Switchyard: retrying ${task.id}`, 4_000);
  return startTaskRun(project, task, deps.shutdown);
}

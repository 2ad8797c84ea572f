import type { QueueSummary } from '../../core/project/project';
import { runQueueWithProgress } from '../progress/runQueueWithProgress';
import { pickTask } from '../prompts/pickTask';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/** `switchyard.runTask(taskId | item)` → the QueueSummary of running just that task (retries included). */
export async function runTask(deps: CommandDeps, arg?: unknown): Promise<QueueSummary> {
  const project = await deps.host.get();
  const state = await project.state();
  const id = taskIdFrom(arg) ?? (await pickTask(state, 'Run which task?', ['READY']));
  const task = await project.tasks.get(id);
  if (task.state !== 'READY') {
    const hint = task.state === 'FAILED' || task.state === 'CANCELED' ? ' (use Retry Task to queue it again)' : '';
    throw new Error(`task ${id} is ${task.state}; only READY tasks can be run${hint}`);
  }
  return runQueueWithProgress(project, {
    title: `Switchyard: running ${task.id} · ${task.spec.title}`,
    taskIds: [task.id],
    shutdown: deps.shutdown,
  });
}

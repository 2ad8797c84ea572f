import { errorMessage } from '../../core/errors';
import type { Task } from '../../core/model/task';
import type { Project } from '../../core/project/project';
import { runQueueWithProgress } from './runQueueWithProgress';
import { showMessage } from '../views/showMessage';

/**
 * Starts running one task in the background (with the usual cancellable
 * progress notification) and resolves once its first run has started, or the
 * queue gave up on it, with the task as stored then (usually RUNNING).
 */
export async function startTaskRun(project: Project, task: Task, shutdown?: AbortSignal): Promise<Task> {
  await new Promise<void>((started) => {
    runQueueWithProgress(project, {
      title: `Switchyard: running ${task.id} · ${task.spec.title}`,
      taskIds: [task.id],
      onRunStarted: () => started(),
      shutdown,
    }).then(
      () => started(),
      (error: unknown) => {
        void showMessage('error', errorMessage(error));
        started();
      },
    );
  });
  return (await project.tasks.find([task.id])).get(task.id) ?? task;
}

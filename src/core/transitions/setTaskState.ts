import { SwitchyardError } from '../errors';
import type { Task } from '../model/task';
import { assertTaskTransition, type TaskState } from '../model/taskStates';
import type { ProjectState } from '../store/projectState';
import { lastWithId } from '../store/lastWithId';

/**
 * The task `id` of `state`; an unknown id is an error naming the tasks there are. Ids are unique; searched from the
 * end, where the working set follows the history.
 */
export function findTask(state: ProjectState, id: string): Task {
  const task = lastWithId(state.tasks, id);
  if (!task)
    throw new SwitchyardError(
      'unknown-task',
      `unknown task "${id}"${state.tasks.length ? `; tasks: ${state.tasks.map((t) => t.id).join(', ')}` : ''}`,
    );
  return task;
}

/** Moves `task` to `to` (a transition the task state machine allows) and stamps `updatedAt`. */
export function setTaskState(task: Task, to: TaskState): void {
  assertTaskTransition(task.state, to, task.id);
  task.state = to;
  task.updatedAt = new Date().toISOString();
}

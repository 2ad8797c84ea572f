import type { Task } from '../../core/model/task';
import type { Project } from '../../core/project';

/** A just-finished task is among the newest this many finished ones (else the whole history is read). */
const RECENT_FINISHED = 20;

/**
 * Task `id` as stored now, looked up among the unfinished and the newest finished tasks; only a task older than
 * those costs a read of the whole history.
 */
export async function findTask(project: Project, id: string): Promise<Task | undefined> {
  const recent = await project.recentState(RECENT_FINISHED);
  const found = recent.state.tasks.find((t) => t.id === id);
  if (found || !recent.more) return found;
  return (await project.state()).tasks.find((t) => t.id === id);
}

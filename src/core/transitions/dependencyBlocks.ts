import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import { setTaskState } from './setTaskState';

/**
 * READY ⇄ BLOCKED by dependencies. When a task FAILS or is CANCELED, every
 * READY task that depends on it (directly or through others) can never run:
 * it becomes BLOCKED, naming the dependencies in its way. When such a
 * dependency is put back in the queue, the tasks it blocked become READY
 * again once nothing else blocks them. Returns one line per task moved.
 */
export function blockDependents(state: ProjectState, failedId: string): string[] {
  const dependents = reverseEdges(state);
  const lines: string[] = [];
  const queue = [failedId];
  const seen = new Set<string>(queue);
  while (queue.length) {
    const id = queue.shift()!;
    for (const dep of dependents.get(id) ?? []) {
      if (seen.has(dep.id)) continue;
      seen.add(dep.id);
      if (dep.state !== 'READY' && dep.state !== 'BLOCKED') continue;
      const blockers = new Set([...(dep.blockedBy ?? []), failedId]);
      dep.blockedBy = [...blockers];
      if (dep.state === 'READY') {
        setTaskState(dep, 'BLOCKED');
        lines.push(`task ${dep.id} BLOCKED: it depends on ${failedId}, which is ${findState(state, failedId)}`);
      }
      queue.push(dep.id);
    }
  }
  return lines;
}

/** `retriedId` is back in the queue: tasks it blocked become READY unless something else still blocks them. */
export function unblockDependents(state: ProjectState, retriedId: string): string[] {
  const lines: string[] = [];
  for (const task of state.tasks) {
    if (task.state !== 'BLOCKED' || !task.blockedBy?.includes(retriedId)) continue;
    task.blockedBy = task.blockedBy.filter((id) => id !== retriedId);
    if (task.blockedBy.length) continue;
    delete task.blockedBy;
    setTaskState(task, 'READY');
    lines.push(`task ${task.id} READY again: ${retriedId} is back in the queue`);
  }
  return lines;
}

/** Those of `ids` whose task FAILED, was CANCELED or is BLOCKED: the dependencies that block a task now. */
export function blockingAmong(state: ProjectState, ids: readonly string[]): string[] {
  return ids.filter((id) => ['FAILED', 'CANCELED', 'BLOCKED'].includes(findState(state, id)));
}

function reverseEdges(state: ProjectState): Map<string, Task[]> {
  const out = new Map<string, Task[]>();
  for (const task of state.tasks) {
    for (const dep of task.spec.dependsOn) {
      const list = out.get(dep);
      if (list) list.push(task);
      else out.set(dep, [task]);
    }
  }
  return out;
}

function findState(state: ProjectState, id: string): string {
  return state.tasks.find((t) => t.id === id)?.state ?? 'gone';
}

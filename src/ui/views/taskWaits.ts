import { fileWaits } from '../../core/engine/drain/fileWaits';
import type { Task } from '../../core/model/task';
import { countStages, startVerdict } from '../../core/scheduler/stageLimits';
import type { ProjectState } from '../../core/store/projectState';

/**
 * What a waiting task waits for, one line each, for its tooltip (pure): a BLOCKED task's failed or canceled
 * dependencies; a READY task's unfinished dependencies, a file another task in progress holds, its retry backoff, and
 * a full stage (no free slot). None for a task that does not wait.
 */
export function taskWaitLines(
  task: Task,
  state: Pick<ProjectState, 'tasks' | 'runs' | 'settings'>,
  now: number,
): string[] {
  const stateOf = (id: string): string => state.tasks.find((t) => t.id === id)?.state ?? 'not found';
  if (task.state === 'BLOCKED') {
    const by = task.blockedBy ?? [];
    return [
      by.length
        ? `blocked by ${by.map((id) => `${id} (${stateOf(id)})`).join(', ')}: Retry Task on it, or Cancel Task here`
        : 'blocked by a dependency that FAILED or was CANCELED',
    ];
  }
  if (task.state !== 'READY') return [];
  const lines: string[] = [];
  // (A dependency not in the state read is an older finished one: not waited for.)
  const open = task.spec.dependsOn.filter((id) => !['DONE', 'not found'].includes(stateOf(id)));
  if (open.length) lines.push(`waits for ${open.map((id) => `${id} (${stateOf(id)})`).join(', ')} to be DONE`);
  // (`here` is not asked for: the owner does not matter to the tooltip.)
  for (const wait of fileWaits(state, '', new Set([task.id])))
    lines.push(`waits for ${wait.file}, held by ${wait.heldBy} (${stateOf(wait.heldBy)}); it may start when that ends`);
  if (task.retryAt && Date.parse(task.retryAt) > now)
    lines.push(`retry backoff: the next attempt starts no earlier than ${task.retryAt.slice(11, 19)} (UTC)`);
  const verdict = startVerdict(countStages(state.tasks.map((t) => t.state)), state.settings.wip);
  if (!verdict.ok) lines.push(`waits for a free slot: ${verdict.reason}`);
  return lines;
}

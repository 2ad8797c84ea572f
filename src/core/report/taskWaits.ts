import { type FileWait, fileWaits } from '../model/fileWaits';
import type { Task } from '../model/task';
import { countStages, startVerdict } from '../scheduler/stageLimits';
import type { ProjectState } from '../store/projectState';

/** What every task's waits are read from, computed once per state (the tree asks for each row). */
export interface WaitFacts {
  states: ReadonlyMap<string, string>;
  /** READY tasks held back by a file a task in progress holds. */
  fileWaits: ReadonlyMap<string, FileWait>;
  /** Why no run starts now (a full stage), if none does. */
  slot?: string;
}

export function waitFacts(state: Pick<ProjectState, 'tasks' | 'runs' | 'settings'>): WaitFacts {
  // (`here` is not asked for: the owner does not matter to the tooltip.)
  const verdict = startVerdict(countStages(state.tasks.map((t) => t.state)), state.settings.wip);
  return {
    states: new Map(state.tasks.map((t) => [t.id, t.state])),
    fileWaits: new Map(fileWaits(state, '').map((w) => [w.taskId, w])),
    ...(verdict.ok ? {} : { slot: verdict.reason }),
  };
}

/**
 * What a waiting task waits for, one line each, for its tooltip (pure): a BLOCKED task's failed or canceled
 * dependencies; a READY task's unfinished dependencies, a file another task in progress holds, its retry backoff, and
 * a full stage (no free slot). None for a task that does not wait. `facts`: the state's, when the caller has them.
 */
export function taskWaitLines(
  task: Task,
  state: Pick<ProjectState, 'tasks' | 'runs' | 'settings'>,
  now: number,
  facts: WaitFacts = waitFacts(state),
): string[] {
  const stateOf = (id: string): string => facts.states.get(id) ?? 'not found';
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
  const wait = facts.fileWaits.get(task.id);
  if (wait)
    lines.push(`waits for ${wait.file}, held by ${wait.heldBy} (${stateOf(wait.heldBy)}); it may start when that ends`);
  if (task.retryAt && Date.parse(task.retryAt) > now)
    lines.push(`retry backoff: the next attempt starts no earlier than ${task.retryAt.slice(11, 19)} (UTC)`);
  if (facts.slot) lines.push(`waits for a free slot: ${facts.slot}`);
  return lines;
}

import { SwitchyardError } from '../errors';
import type { NewTaskSpec } from '../model/newTaskSpec';
import type { Task } from '../model/task';
import { describeCycle, findCycle } from '../scheduler/findCycle';
import { lastWithId } from '../store/lastWithId';
import type { ProjectState } from '../store/projectState';
import { blockDependents, blockingAmong, unblockDependents } from './dependencyBlocks';
import { findTask, setTaskState } from './setTaskState';

/**
 * What the task commands do to the state (engine/commands/taskCommands.ts runs each in one store transaction): pure
 * functions of the state and their arguments, tested without a store, git or a process. Each throws a SwitchyardError,
 * changing nothing, when the command does not apply.
 */

export interface AddWhere {
  baseCommit: string;
  /** Where the specs came from, for errors (`task`, a file name). */
  where: string;
  /** The label of spec `index` in errors. */
  label(index: number): string;
  now: number;
}

/**
 * Adds parsed specs as READY (DRAFT when asked) tasks with the next ids; `dependsOn` names task ids or the `key` of
 * another spec of the batch (`keys`: key → index). An unknown dependency or a cycle is refused, naming it; a
 * dependency already FAILED, CANCELED or BLOCKED blocks the new task at once.
 */
export function addTasksTo(
  state: ProjectState,
  specs: readonly NewTaskSpec[],
  keys: ReadonlyMap<string, number>,
  { baseCommit, where, label, now }: AddWhere,
): Task[] {
  const ids = specs.map((_, i) => `t${state.nextTaskNumber + i}`);
  const known = new Set(state.tasks.map((t) => t.id));
  const resolved = specs.map((spec, index) => {
    const deps = spec.dependsOn.map((dep) => (keys.has(dep) ? ids[keys.get(dep)!]! : dep));
    const missing = deps.filter((dep) => !known.has(dep) && !ids.includes(dep));
    if (missing.length)
      throw new SwitchyardError(
        'invalid-input',
        `${label(index)} ("${spec.title}"): dependsOn names unknown task(s) ${missing.join(', ')}`,
      );
    return { ...spec, dependsOn: [...new Set(deps)] };
  });
  const graph = new Map<string, readonly string[]>(resolved.map((spec, i) => [ids[i]!, spec.dependsOn]));
  const cycle = findCycle(graph);
  if (cycle) {
    const name = (id: string): string => {
      const i = ids.indexOf(id);
      return i >= 0 ? (resolved[i]!.key ?? `"${resolved[i]!.title}"`) : id;
    };
    throw new SwitchyardError('invalid-input', `${where}: ${describeCycle(cycle, name)} (each depends on the next)`);
  }
  const created: Task[] = [];
  const at = new Date(now).toISOString();
  for (const [i, spec] of resolved.entries()) {
    const task: Task = {
      id: ids[i]!,
      spec,
      state: spec.draft ? 'DRAFT' : 'READY',
      baseCommit,
      createdAt: at,
      updatedAt: at,
      attempts: 0,
      generation: 0,
    };
    state.tasks.push(task);
    created.push(task);
  }
  state.nextTaskNumber += specs.length;
  // A dependency that already FAILED or was CANCELED blocks the new task at once.
  for (const task of created) {
    const blockers = blockingAmong(state, task.spec.dependsOn);
    if (blockers.length && task.state === 'READY') {
      task.blockedBy = blockers;
      setTaskState(task, 'BLOCKED');
    }
  }
  return created;
}

/** Cancels a task: its generation moves on, so a result that still arrives is kept as stale. */
export function cancelTaskIn(state: ProjectState, id: string): Task {
  const task = findTask(state, id);
  if (task.state === 'INTEGRATING' && task.integration && task.integration.runId === task.lastRunId) {
    throw new SwitchyardError(
      'illegal-transition',
      `task ${id}'s work is already merged into ${task.integration.branch} (${task.integration.commit.slice(0, 12)}): too late to cancel`,
    );
  }
  const last = task.state === 'INTEGRATING' && task.lastRunId ? lastWithId(state.runs, task.lastRunId) : undefined;
  const moving = last?.integrationIntent;
  if (moving) {
    throw new SwitchyardError(
      'illegal-transition',
      `task ${id}'s work is being merged into ${moving.branch} (${moving.to.slice(0, 12)}) right now: too late to cancel`,
    );
  }
  setTaskState(task, 'CANCELED');
  task.generation += 1;
  task.failureReason = 'canceled by the user';
  delete task.retryAt;
  blockDependents(state, task.id);
  return task;
}

/**
 * Approves a DRAFT task: it becomes READY (or BLOCKED, when a dependency FAILED or was CANCELED) and can be scheduled.
 */
export function approveTaskIn(state: ProjectState, id: string): Task {
  const task = findTask(state, id);
  if (task.state !== 'DRAFT')
    throw new SwitchyardError('illegal-transition', `task ${id} is ${task.state}; only DRAFT tasks need approval`);
  setTaskState(task, 'READY');
  const blockers = blockingAmong(state, task.spec.dependsOn);
  if (blockers.length) {
    task.blockedBy = blockers;
    setTaskState(task, 'BLOCKED');
  }
  return task;
}

/** Puts a FAILED or CANCELED task back in the queue with a fresh attempt budget. */
export function retryTaskIn(state: ProjectState, id: string): Task {
  const task = findTask(state, id);
  if (task.state !== 'FAILED' && task.state !== 'CANCELED') {
    throw new SwitchyardError(
      'illegal-transition',
      `task ${id} is ${task.state}; only FAILED or CANCELED tasks can be retried`,
    );
  }
  setTaskState(task, 'READY');
  const blockers = blockingAmong(state, task.blockedBy ?? []);
  if (blockers.length) {
    task.blockedBy = blockers;
    setTaskState(task, 'BLOCKED');
  } else {
    delete task.blockedBy;
  }
  task.attemptsBefore = (task.attemptsBefore ?? 0) + task.attempts;
  task.attempts = 0;
  delete task.failureReason;
  delete task.retryAt;
  unblockDependents(state, task.id);
  return task;
}

/** Moves a task to another lane (checked to exist by the caller). */
export function setTaskLaneIn(state: ProjectState, id: string, lane: string): Task {
  const task = findTask(state, id);
  task.spec.lane = lane;
  task.updatedAt = new Date().toISOString();
  return task;
}

import { SwitchyardError } from '../errors';
import type { LaneRegistry } from '../lanes/laneRegistry';
import { NewTaskSpec } from '../model/newTaskSpec';
import type { Task, TaskSpecInput } from '../model/task';
import { describeZodError } from '../model/zodIssues';
import { describeCycle, findCycle } from '../scheduler/findCycle';
import { lastWithId } from '../store/lastWithId';
import { blockDependents, unblockDependents } from './dependencyBlocks';
import type { StateStore } from '../backend/stateStore';
import { findTask, setTaskState } from './setTaskState';

export { findTask, setTaskState };

/**
 * Parses task specs, checking lanes, urgent flags and dependencies, and
 * stores them as READY tasks. `dependsOn` names task ids or the `key` of
 * another spec in the same batch; a dependency cycle is refused, naming it.
 * Titles are one line and target files relative paths inside the
 * repository (NewTaskSpec). Nothing is stored when any spec is wrong.
 */
export async function addTasks(
  store: StateStore,
  registry: LaneRegistry,
  inputs: readonly unknown[],
  baseCommit: string,
  where = 'task',
  now = Date.now(),
): Promise<Task[]> {
  const label = (index: number): string => (inputs.length > 1 ? `${where} #${index + 1}` : where);
  const specs = inputs.map((input, index) => {
    const parsed = NewTaskSpec.safeParse(input);
    if (!parsed.success)
      throw new SwitchyardError('invalid-input', `${label(index)}: ${describeZodError(parsed.error)}`);
    if (parsed.data.lane) registry.require(parsed.data.lane);
    const urgent = parsed.data.urgent;
    if (urgent && Date.parse(urgent.expiresAt) <= now) {
      throw new SwitchyardError(
        'invalid-input',
        `${label(index)}: urgent.expiresAt: must be in the future (it is ${urgent.expiresAt}; now is ${new Date(now).toISOString()})`,
      );
    }
    return parsed.data;
  });
  const keys = new Map<string, number>();
  specs.forEach((spec, index) => {
    if (!spec.key) return;
    if (keys.has(spec.key))
      throw new SwitchyardError('invalid-input', `${label(index)}: key "${spec.key}" is used twice in ${where}`);
    keys.set(spec.key, index);
  });
  return store.update((state) => {
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
      const blockers = task.spec.dependsOn.filter((dep) =>
        ['FAILED', 'CANCELED', 'BLOCKED'].includes(state.tasks.find((t) => t.id === dep)?.state ?? ''),
      );
      if (blockers.length && task.state === 'READY') {
        task.blockedBy = blockers;
        setTaskState(task, 'BLOCKED');
      }
    }
    return created;
  });
}

export function addTask(
  store: StateStore,
  registry: LaneRegistry,
  input: TaskSpecInput,
  baseCommit: string,
): Promise<Task> {
  return addTasks(store, registry, [input], baseCommit).then((tasks) => tasks[0]!);
}

/** Cancels a task: its generation moves on, so a result that still arrives is kept as stale. */
export function cancelTask(store: StateStore, id: string): Promise<Task> {
  return store.update((state) => {
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
  });
}

/**
 * Approves a DRAFT task: it becomes READY (or BLOCKED, when a dependency FAILED or was CANCELED) and can be scheduled.
 */
export function approveTask(store: StateStore, id: string): Promise<Task> {
  return store.update((state) => {
    const task = findTask(state, id);
    if (task.state !== 'DRAFT')
      throw new SwitchyardError('illegal-transition', `task ${id} is ${task.state}; only DRAFT tasks need approval`);
    setTaskState(task, 'READY');
    const blockers = task.spec.dependsOn.filter((dep) =>
      ['FAILED', 'CANCELED', 'BLOCKED'].includes(state.tasks.find((t) => t.id === dep)?.state ?? ''),
    );
    if (blockers.length) {
      task.blockedBy = blockers;
      setTaskState(task, 'BLOCKED');
    }
    return task;
  });
}

/** Puts a FAILED or CANCELED task back in the queue with a fresh attempt budget. */
export function retryTask(store: StateStore, id: string): Promise<Task> {
  return store.update((state) => {
    const task = findTask(state, id);
    if (task.state !== 'FAILED' && task.state !== 'CANCELED') {
      throw new SwitchyardError(
        'illegal-transition',
        `task ${id} is ${task.state}; only FAILED or CANCELED tasks can be retried`,
      );
    }
    setTaskState(task, 'READY');
    const blockers = (task.blockedBy ?? []).filter((dep) =>
      ['FAILED', 'CANCELED', 'BLOCKED'].includes(state.tasks.find((t) => t.id === dep)?.state ?? ''),
    );
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
  });
}

export function setTaskLane(store: StateStore, registry: LaneRegistry, id: string, lane: string): Promise<Task> {
  registry.require(lane);
  return store.update((state) => {
    const task = findTask(state, id);
    task.spec.lane = lane;
    task.updatedAt = new Date().toISOString();
    return task;
  });
}

import { SwitchyardError } from '../../errors';
import type { LaneRegistry } from '../../lanes/laneRegistry';
import { NewTaskSpec } from '../../model/newTaskSpec';
import type { Task, TaskSpecInput } from '../../model/task';
import { describeZodError } from '../../model/zodIssues';
import type { StateStore } from '../../backend/stateStore';
import { findTask, setTaskState } from '../../transitions/setTaskState';
import { addTasksTo, approveTaskIn, cancelTaskIn, retryTaskIn, setTaskLaneIn } from '../../transitions/taskTransitions';

export { findTask, setTaskState };

/**
 * The task commands, each one store transaction around its transition (transitions/taskTransitions.ts).
 *
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
  return store.update((state) => addTasksTo(state, specs, keys, { baseCommit, where, label, now }));
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
  return store.update((state) => cancelTaskIn(state, id));
}

/**
 * Approves a DRAFT task: it becomes READY (or BLOCKED, when a dependency FAILED or was CANCELED) and can be scheduled.
 */
export function approveTask(store: StateStore, id: string): Promise<Task> {
  return store.update((state) => approveTaskIn(state, id));
}

/** Puts a FAILED or CANCELED task back in the queue with a fresh attempt budget. */
export function retryTask(store: StateStore, id: string): Promise<Task> {
  return store.update((state) => retryTaskIn(state, id));
}

export function setTaskLane(store: StateStore, registry: LaneRegistry, id: string, lane: string): Promise<Task> {
  registry.require(lane);
  return store.update((state) => setTaskLaneIn(state, id, lane));
}

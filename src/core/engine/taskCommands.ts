import { SwitchyardError } from '../errors';
import type { LaneRegistry } from '../lanes/laneRegistry';
import { TaskSpec, type Task, type TaskSpecInput } from '../model/task';
import { assertTaskTransition, type TaskState } from '../model/taskStates';
import { describeZodError } from '../model/zodIssues';
import type { ProjectState } from '../store/projectState';
import type { ProjectStore } from '../store/projectStore';

export function findTask(state: ProjectState, id: string): Task {
  const task = state.tasks.find((t) => t.id === id);
  if (!task) throw new SwitchyardError('unknown-task', `unknown task "${id}"${state.tasks.length ? `; tasks: ${state.tasks.map((t) => t.id).join(', ')}` : ''}`);
  return task;
}

export function setTaskState(task: Task, to: TaskState): void {
  assertTaskTransition(task.state, to, task.id);
  task.state = to;
  task.updatedAt = new Date().toISOString();
}

/** Parses task specs, checking lanes and dependencies, and stores them as READY tasks. */
export async function addTasks(
  store: ProjectStore,
  registry: LaneRegistry,
  inputs: readonly unknown[],
  baseCommit: string,
  where = 'task',
): Promise<Task[]> {
  const specs = inputs.map((input, index) => {
    const parsed = TaskSpec.safeParse(input);
    const label = inputs.length > 1 ? `${where} #${index + 1}` : where;
    if (!parsed.success) throw new SwitchyardError('invalid-input', `${label}: ${describeZodError(parsed.error)}`);
    if (parsed.data.lane) registry.require(parsed.data.lane);
    return parsed.data;
  });
  return store.update((state) => {
    const created: Task[] = [];
    for (const spec of specs) {
      const known = new Set([...state.tasks.map((t) => t.id), ...created.map((t) => t.id)]);
      const missing = spec.dependsOn.filter((dep) => !known.has(dep));
      if (missing.length) throw new SwitchyardError('invalid-input', `task "${spec.title}": dependsOn names unknown task(s) ${missing.join(', ')}`);
      const now = new Date().toISOString();
      const task: Task = {
        id: `t${state.nextTaskNumber++}`,
        spec,
        state: 'READY',
        baseCommit,
        createdAt: now,
        updatedAt: now,
        attempts: 0,
        generation: 0,
      };
      state.tasks.push(task);
      created.push(task);
    }
    return created;
  });
}

export function addTask(store: ProjectStore, registry: LaneRegistry, input: TaskSpecInput, baseCommit: string): Promise<Task> {
  return addTasks(store, registry, [input], baseCommit).then((tasks) => tasks[0]!);
}

/** Cancels a task: its generation moves on, so a result that still arrives is kept as stale. */
export function cancelTask(store: ProjectStore, id: string): Promise<Task> {
  return store.update((state) => {
    const task = findTask(state, id);
    setTaskState(task, 'CANCELED');
    task.generation += 1;
    task.failureReason = 'canceled by the user';
    return task;
  });
}

/** Puts a FAILED or CANCELED task back in the queue with a fresh attempt budget. */
export function retryTask(store: ProjectStore, id: string): Promise<Task> {
  return store.update((state) => {
    const task = findTask(state, id);
    if (task.state !== 'FAILED' && task.state !== 'CANCELED') {
      throw new SwitchyardError('illegal-transition', `task ${id} is ${task.state}; only FAILED or CANCELED tasks can be retried`);
    }
    setTaskState(task, 'READY');
    task.attempts = 0;
    delete task.failureReason;
    return task;
  });
}

export function setTaskLane(store: ProjectStore, registry: LaneRegistry, id: string, lane: string): Promise<Task> {
  registry.require(lane);
  return store.update((state) => {
    const task = findTask(state, id);
    task.spec.lane = lane;
    task.updatedAt = new Date().toISOString();
    return task;
  });
}

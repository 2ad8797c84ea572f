import type { FinishedPage, ListFinishedOptions } from '../backend/stateStore';
import { addTasks, approveTask, cancelTask, retryTask, setTaskLane } from '../engine/commands/taskCommands';
import type { Task, TaskSpecInput } from '../model/task';
import { findTask } from '../transitions/setTaskState';
import { headCommit } from '../workspace/gitRepo';
import type { ProjectCore } from './projectCore';

/** `project.tasks`: the task commands and the lookups of stored tasks. */
export class TaskService {
  constructor(private readonly core: ProjectCore) {}

  /** Adds tasks (specs parsed here; a batch is all or nothing), based on the repository's HEAD. */
  addMany(specs: readonly unknown[], where?: string): Promise<Task[]> {
    const { store, registry, root } = this.core;
    return this.core.command(async () => addTasks(store, registry, specs, await headCommit(root), where));
  }

  async add(spec: TaskSpecInput): Promise<Task> {
    return (await this.addMany([spec]))[0]!;
  }

  cancel(id: string): Promise<Task> {
    return this.decided(
      'cancel',
      id,
      () => cancelTask(this.core.store, id),
      (task) =>
        `task ${id} canceled by the user: generation ${task.generation}; a result that still arrives is kept as STALE_RESULT`,
    );
  }

  /** Approves a DRAFT task, so the scheduler may start it. */
  approve(id: string): Promise<Task> {
    return this.decided(
      'approve',
      id,
      () => approveTask(this.core.store, id),
      (task) => `task ${id} approved: ${task.state}`,
    );
  }

  retry(id: string): Promise<Task> {
    return this.core.command(() => retryTask(this.core.store, id));
  }

  setLane(id: string, lane: string): Promise<Task> {
    return this.core.command(() => setTaskLane(this.core.store, this.core.registry, id, lane));
  }

  /**
   * Task `id` as stored now, wherever it is (the newest are found without reading the history); an unknown id is an
   * `unknown-task` error naming the tasks there are.
   */
  async get(id: string): Promise<Task> {
    const found = (await this.core.store.findFinished([id])).get(id);
    return found ?? findTask(await this.core.store.read(), id);
  }

  /** The tasks with these ids as stored now, wherever they are (the newest are found without reading the history). */
  find(ids: Iterable<string>): Promise<Map<string, Task>> {
    return this.core.store.findFinished(ids);
  }

  /** A page of finished tasks, newest first, with their runs (report, the tree and the panel page with it). */
  listFinished(options: ListFinishedOptions): Promise<FinishedPage> {
    return this.core.store.listFinished(options);
  }

  /** A user's decision on a task, made (`change`), recorded in the trace and told as one change. */
  private decided(
    kind: 'cancel' | 'approve',
    id: string,
    change: () => Promise<Task>,
    message: (task: Task) => string,
  ): Promise<Task> {
    return this.core.command(async () => {
      const task = await change();
      this.core.ctx.trace.append({ type: 'decision', kind, task: id, message: message(task) });
      return task;
    });
  }
}

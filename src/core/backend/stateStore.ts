import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import type { LeaseView } from '../lease/leaseStore';

export interface ListFinishedOptions {
  /** At most this many tasks. */
  limit: number;
  /** The `next` of the previous page: the tasks finished before that one. */
  before?: string;
}

/** A page of finished tasks (DONE, FAILED, CANCELED), newest first, with their runs. */
export interface FinishedPage {
  tasks: Task[];
  runs: Run[];
  /** Pass as `before` for the next page; absent on the last page. */
  next?: string;
}

/**
 * The project's tasks, runs and settings. `update` is one transaction: it
 * reads the latest state, applies `change`, validates and writes the result,
 * serialized against every other process sharing the backend. A change
 * that leaves the state as it was writes nothing: the revision stays and no
 * watcher wakes. Otherwise the revision goes up by one, and `change`'s
 * draft carries the new revision when `update` resolves.
 */
export interface StateStore {
  /** A fresh copy of the latest state. */
  read(): Promise<ProjectState>;
  /** Applies `change` to the latest state atomically; `leases` reads and takes run leases in the same transaction. */
  update<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T>;
  /**
   * `update` for changes to unfinished tasks: the draft may hold the working set only (see `readWorking`), marked so
   * (`workingOnlyInfo`); a lookup that misses there (`lastWithId`) runs the change again on the whole state. A backend
   * without a cheaper working set runs `update`.
   */
  updateWorking<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T>;
  /**
   * The state with only its working set: every task not finished, and possibly some recently finished ones, with
   * their runs. Cheap however long the history is; `listFinished` pages through the rest. A backend that keeps the
   * history's lane cost samples marks it with them (`workingOnlyInfo`), so a scheduler can work from it alone.
   */
  readWorking(): Promise<ProjectState>;
  /** Finished tasks, newest first, a page at a time. */
  listFinished(options: ListFinishedOptions): Promise<FinishedPage>;
  /** The tasks with these ids, wherever they are (working set or history); ids of no task are left out. */
  findFinished(ids: Iterable<string>): Promise<Map<string, Task>>;
}

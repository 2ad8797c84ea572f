import type { ProjectState } from '../store/projectState';
import type { LeaseView } from '../lease/leaseStore';

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
}

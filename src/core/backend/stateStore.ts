import type { ProjectState } from '../store/projectState';
import type { LeaseView } from './leaseStore';

/**
 * The project's tasks, runs and settings. `update` is one transaction: it
 * reads the latest state, applies `change`, validates and writes the result,
 * serialized against every other process sharing the backend.
 */
export interface StateStore {
  /** A fresh copy of the latest state. */
  read(): Promise<ProjectState>;
  /** Applies `change` to the latest state atomically; `leases` reads and takes run leases in the same transaction. */
  update<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T>;
}

import type { Disposable } from '../model/disposable';
import type { JournalStore } from '../journal/journalStore';
import type { LeaseStore } from '../lease/leaseStore';
import type { StateStore } from './stateStore';

export type BackendKind = 'files' | 'postgres';

/**
 * Where a project keeps what several processes share: state (tasks, runs,
 * settings), run leases and run journals, and a feed of changes. `files` is
 * the embedded default (JSON and JSONL files under `.switchyard/`); `postgres`
 * shares one queue and journal store between windows and machines.
 */
export interface Backend {
  readonly kind: BackendKind;
  /** For messages: the folder, or the server, database and project (never a password). */
  readonly description: string;
  readonly state: StateStore;
  readonly leases: LeaseStore;
  readonly journals: JournalStore;
  /** Calls `listener` after a change to the state by any process (debounced by the caller). */
  watch(listener: () => void): Disposable;
  close(): Promise<void>;
}

import type { Lease } from './leaseFile';
import type { ProcessGroupRecord } from '../process/processGroupRecord';

/**
 * Run leases inside a state transaction: what recovery reads and takes over
 * in the same atomic step as it changes the run, so exactly one process wins.
 */
export interface LeaseView {
  get(runId: string): Lease | undefined;
  /** Gives the run's lease to `owner` for `durationMs`, written with the transaction. */
  take(runId: string, owner: string, durationMs: number): void;
}

/** Heartbeats of the runs a process owns; the backend decides where leases live (files, or a table). */
export interface LeaseStore {
  /** Writes `owner`'s lease on a run it just claimed. */
  acquire(runId: string, owner: string, durationMs: number): Promise<void>;
  /** Extends the lease while `owner` holds it; returns the owner that holds it now when that is someone else. */
  renew(runId: string, owner: string, durationMs: number): Promise<string | undefined>;
  /**
   * Records the process groups `owner` has alive for the run (replacing the previous list), if it still holds the
   * lease.
   */
  recordGroups(runId: string, owner: string, groups: ProcessGroupRecord[]): Promise<void>;
  /** Deletes the lease if `owner` still holds it (the run's end is recorded). */
  release(runId: string, owner: string): Promise<void>;
  /** Expires `owner`'s lease now, so another process takes the run over and resumes it at once (graceful shutdown). */
  handBack(runId: string, owner: string): Promise<void>;
}

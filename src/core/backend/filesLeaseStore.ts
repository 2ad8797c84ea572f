import { rmSync } from 'node:fs';
import { leasePath } from '../journal/journalFiles';
import { readLeaseSync, writeLeaseGroupsSync, writeLeaseSync } from '../lease/leaseFile';
import type { ProcessGroupRecord } from '../process/processGroupRecord';
import type { LeaseStore, LeaseView } from '../lease/leaseStore';

/** Leases as `runs/<id>/lease.json` files, read and written under the state store's lock. */
export class FilesLeaseStore implements LeaseStore {
  constructor(
    private readonly root: string,
    private readonly withLock: <T>(fn: () => T) => Promise<T>,
  ) {}

  acquire(runId: string, owner: string, durationMs: number): Promise<void> {
    return this.withLock(() => writeLeaseSync(leasePath(this.root, runId), owner, durationMs));
  }

  renew(runId: string, owner: string, durationMs: number): Promise<string | undefined> {
    return this.withLock(() => {
      const file = leasePath(this.root, runId);
      const current = readLeaseSync(file);
      if (current && current.owner !== owner) return current.owner;
      writeLeaseSync(file, owner, durationMs);
      return undefined;
    });
  }

  recordGroups(runId: string, owner: string, groups: ProcessGroupRecord[]): Promise<void> {
    return this.withLock(() => writeLeaseGroupsSync(leasePath(this.root, runId), owner, groups));
  }

  release(runId: string, owner: string): Promise<void> {
    return this.withLock(() => {
      const file = leasePath(this.root, runId);
      if (readLeaseSync(file)?.owner === owner) rmSync(file, { force: true });
    });
  }

  handBack(runId: string, owner: string): Promise<void> {
    return this.withLock(() => {
      const file = leasePath(this.root, runId);
      if (readLeaseSync(file)?.owner === owner) writeLeaseSync(file, owner, -1);
    });
  }
}

/** The lease view of a files transaction: the lease files themselves (the caller holds the lock). */
export function filesLeaseView(root: string): LeaseView {
  return {
    get: (runId) => readLeaseSync(leasePath(root, runId)),
    take: (runId, owner, durationMs) => writeLeaseSync(leasePath(root, runId), owner, durationMs),
  };
}

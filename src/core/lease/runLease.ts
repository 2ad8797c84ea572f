import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ownerIsGone } from './ownerId';
import type { LeaseStore } from './leaseStore';
import { ProcessGroupRecord } from '../process/processGroupRecord';

/** A run's lease; `groups` are the process groups its owner has alive for it (see killRecordedGroups.ts). */
export const Lease = z.object({ owner: z.string(), heartbeatAt: z.string(), expiresAt: z.string(), groups: z.array(ProcessGroupRecord).optional() }).strict();
export type Lease = z.infer<typeof Lease>;

/** Reads a lease file synchronously (it is read inside the store's lock); missing or unreadable reads as none. */
export function readLeaseSync(file: string): Lease | undefined {
  try {
    const parsed = Lease.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a run owned by `owner` may be taken over: its lease has expired,
 * or its owner is a process on this host that is gone. A run without a lease
 * file counts as expired once `graceMs` have passed since it started.
 */
export function leaseIsFree(lease: Lease | undefined, owner: string | undefined, startedAt: string, now: number, graceMs: number): boolean {
  if (ownerIsGone(lease?.owner ?? owner)) return true;
  if (!lease) return now - Date.parse(startedAt) > graceMs;
  return Date.parse(lease.expiresAt) < now;
}

/**
 * Writes `owner`'s lease (temp file + rename). Call it only while holding the
 * store lock. The recorded process groups are kept while the owner stays the
 * same (a renewal) unless `groups` replaces them; a new owner starts with none.
 */
export function writeLeaseSync(file: string, owner: string, durationMs: number, groups?: ProcessGroupRecord[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const now = Date.now();
  const current = groups === undefined ? readLeaseSync(file) : undefined;
  const kept = groups ?? (current?.owner === owner ? current.groups : undefined);
  const lease: Lease = { owner, heartbeatAt: new Date(now).toISOString(), expiresAt: new Date(now + durationMs).toISOString(), ...(kept?.length ? { groups: kept } : {}) };
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(lease));
  renameSync(temp, file);
}

/** Replaces the process groups recorded with `owner`'s lease (its expiry unchanged); no-op when someone else holds it. Under the store lock. */
export function writeLeaseGroupsSync(file: string, owner: string, groups: ProcessGroupRecord[]): void {
  const current = readLeaseSync(file);
  if (current?.owner !== owner) return;
  const { groups: _old, ...rest } = current;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(groups.length ? { ...rest, groups } : rest));
  renameSync(temp, file);
}

/**
 * Holds a run's lease: renews it every third of its duration while the
 * backend still names this owner, and calls `onLost` once another process
 * has taken the run over. Takeovers are decided in the backend's state
 * transaction, so two processes never both hold a run.
 */
export class RunLease {
  private timer: NodeJS.Timeout | undefined;
  private groupWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly leases: LeaseStore,
    readonly runId: string,
    readonly owner: string,
    private readonly durationMs: number,
    private readonly onLost: (by: string) => void,
  ) {}

  /** Writes the lease (unless `alreadyWritten` by a takeover) and starts renewing it. */
  async start(alreadyWritten = false): Promise<void> {
    if (!alreadyWritten) await this.leases.acquire(this.runId, this.owner, this.durationMs);
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.durationMs / 3)));
    this.timer.unref();
  }

  /** Records the process groups the run has alive now (see runGroups.ts); writes are applied in order. */
  recordGroups(groups: ProcessGroupRecord[]): Promise<void> {
    this.groupWrites = this.groupWrites.then(() => this.leases.recordGroups(this.runId, this.owner, groups)).catch(() => undefined);
    return this.groupWrites;
  }

  async release(): Promise<void> {
    await this.groupWrites;
    this.stop();
    await this.leases.release(this.runId, this.owner).catch(() => undefined);
  }

  /** Stops renewing and expires the lease now, so another process resumes the run at once. */
  async handBack(): Promise<void> {
    this.stop();
    await this.leases.handBack(this.runId, this.owner).catch(() => undefined);
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async renew(): Promise<void> {
    // A renewal that fails (backend unreachable for a moment) is retried at the next tick; the lease lasts three ticks.
    const lostTo = await this.leases.renew(this.runId, this.owner, this.durationMs).catch(() => undefined);
    if (lostTo && this.timer) {
      this.stop();
      this.onLost(lostTo);
    }
  }
}

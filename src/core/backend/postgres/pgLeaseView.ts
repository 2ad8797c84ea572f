import type { Lease } from '../../lease/leaseFile';
import { ProcessGroupRecord } from '../../process/processGroupRecord';
import type { LeaseView } from '../../lease/leaseStore';
import type { Queryable } from './pgConnection';

/** A lease row as the state query returns it; `remainingMs` is measured on the server's clock. */
export interface LeaseRow {
  runId: string;
  owner: string;
  heartbeatAt: string;
  expiresAt: string;
  remainingMs: number;
  groups?: unknown;
}

/**
 * The leases seen inside a state transaction. Expiry times are translated
 * to this machine's clock from the server's (`remainingMs`), so workers on
 * machines whose clocks disagree still agree on which leases expired.
 * Takeovers are written in the same transaction. Both use clock_timestamp(),
 * not now(): now() is when the transaction began, before it waited for the
 * project's lock.
 */
export class PgLeaseView implements LeaseView {
  private readonly leases = new Map<string, Lease>();
  private readonly taken: { runId: string; owner: string; durationMs: number }[] = [];

  constructor(rows: readonly LeaseRow[]) {
    const now = Date.now();
    for (const row of rows) {
      // A damaged groups column reads as none: the groups cannot be ended, the lease still holds.
      const groups = ProcessGroupRecord.array().safeParse(row.groups ?? []);
      this.leases.set(row.runId, {
        owner: row.owner,
        heartbeatAt: new Date(row.heartbeatAt).toISOString(),
        expiresAt: new Date(now + Number(row.remainingMs)).toISOString(),
        ...(groups.success && groups.data.length ? { groups: groups.data } : {}),
      });
    }
  }

  /** How many takeovers this transaction will write. */
  get takes(): number {
    return this.taken.length;
  }

  get(runId: string): Lease | undefined {
    return this.leases.get(runId);
  }

  take(runId: string, owner: string, durationMs: number): void {
    const now = Date.now();
    this.leases.set(runId, {
      owner,
      heartbeatAt: new Date(now).toISOString(),
      expiresAt: new Date(now + durationMs).toISOString(),
    });
    this.taken.push({ runId, owner, durationMs });
  }

  async flush(q: Queryable, project: string): Promise<void> {
    for (const t of this.taken) await writeLease(q, project, t.runId, t.owner, t.durationMs);
  }
}

/**
 * Gives run `runId`'s lease to `owner` for `durationMs` from now (the statement's clock, not the transaction's start);
 * a new owner starts with no recorded groups.
 */
export async function writeLease(
  q: Queryable,
  project: string,
  runId: string,
  owner: string,
  durationMs: number,
): Promise<void> {
  await q.query(
    `INSERT INTO sy_run_leases (project, run_id, owner, heartbeat_at, expires_at)
       VALUES ($1, $2, $3, clock_timestamp(), clock_timestamp() + $4 * interval '1 millisecond')
     ON CONFLICT (project, run_id) DO UPDATE
       SET owner = EXCLUDED.owner, heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at,
       groups = CASE WHEN sy_run_leases.owner = EXCLUDED.owner THEN sy_run_leases.groups END`,
    [project, runId, owner, durationMs],
  );
}

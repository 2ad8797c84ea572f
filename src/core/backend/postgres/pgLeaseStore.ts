import type { ProcessGroupRecord } from '../../process/processGroupRecord';
import type { LeaseStore } from '../../lease/leaseStore';
import type { PgConnection } from './pgConnection';
import { writeLease } from './pgLeaseView';
import { CHANGE_CHANNEL } from './pgStateStore';

/**
 * Run leases as rows with heartbeat and expiry columns, on the server's
 * clock. A heartbeat is one statement on the lease's row and never waits
 * for the project's state lock.
 */
export class PgLeaseStore implements LeaseStore {
  constructor(
    private readonly db: PgConnection,
    private readonly project: string,
  ) {}

  acquire(runId: string, owner: string, durationMs: number): Promise<void> {
    return writeLease(this.db, this.project, runId, owner, durationMs);
  }

  async renew(runId: string, owner: string, durationMs: number): Promise<string | undefined> {
    const { rows } = await this.db.query<{ owner: string }>(
      `INSERT INTO sy_run_leases AS l (project, run_id, owner, heartbeat_at, expires_at)
         VALUES ($1, $2, $3, now(), now() + $4 * interval '1 millisecond')
       ON CONFLICT (project, run_id) DO UPDATE
         SET heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at
         WHERE l.owner = EXCLUDED.owner
       RETURNING l.owner`,
      [this.project, runId, owner, durationMs],
    );
    if (rows.length) return undefined;
    const holder = await this.db.query<{ owner: string }>(
      'SELECT owner FROM sy_run_leases WHERE project = $1 AND run_id = $2',
      [this.project, runId],
    );
    const now = holder.rows[0]?.owner;
    return now && now !== owner ? now : undefined;
  }

  async recordGroups(runId: string, owner: string, groups: ProcessGroupRecord[]): Promise<void> {
    await this.db.query('UPDATE sy_run_leases SET groups = $4 WHERE project = $1 AND run_id = $2 AND owner = $3', [
      this.project,
      runId,
      owner,
      groups.length ? JSON.stringify(groups) : null,
    ]);
  }

  async release(runId: string, owner: string): Promise<void> {
    await this.db.query('DELETE FROM sy_run_leases WHERE project = $1 AND run_id = $2 AND owner = $3', [
      this.project,
      runId,
      owner,
    ]);
  }

  async handBack(runId: string, owner: string): Promise<void> {
    await this.db.query(
      `UPDATE sy_run_leases SET expires_at = now() - interval '1 millisecond' WHERE project = $1 AND run_id = $2 AND owner = $3`,
      [this.project, runId, owner],
    );
    // Idle workers wake on the change feed and take the run over at once.
    await this.db.query('SELECT pg_notify($1, $2)', [
      CHANGE_CHANNEL,
      JSON.stringify({ project: this.project, handedBack: runId }),
    ]);
  }
}

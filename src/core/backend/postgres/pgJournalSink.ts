import { SwitchyardError } from '../../errors';
import { BatchedJournalSink, type JournalLine } from '../../journal/batchedJournalSink';
import type { PgConnection } from './pgConnection';

/**
 * Appends a run's journal events as rows: one group commit is one INSERT of
 * every queued row. A row is only written while this process holds the
 * run's lease: a process that lost the run (its lease taken over) cannot add
 * to the journal the new owner resumes from. A batch retried after a lost
 * connection is checked against what landed, so no event is written twice.
 */
export class PgJournalSink extends BatchedJournalSink {
  constructor(
    private readonly db: PgConnection,
    private readonly project: string,
    runId: string,
    lastSeq: number,
    private readonly owner: string,
    redact?: (line: string) => string,
  ) {
    super(runId, lastSeq, redact);
  }

  get where(): string {
    return `PostgreSQL ${this.db.description} sy_journal_events (project ${this.project}, run ${this.runId})`;
  }

  async close(): Promise<void> {
    await this.sync();
  }

  protected async writeBatch(batch: readonly JournalLine[]): Promise<void> {
    const seqs = batch.map((b) => b.seq);
    const lines = batch.map((b) => b.line);
    // FOR SHARE: a takeover (which updates the lease row) waits until these rows are committed, and an insert that
    // waited for a takeover re-reads the row and finds the new owner; so no row lands after the new owner read the
    // journal.
    const { rowCount } = await this.db.query(
      `INSERT INTO sy_journal_events (project, run_id, seq, event)
       SELECT $1, $2, seq, event FROM unnest($3::int[], $4::text[]) AS x(seq, event)
       WHERE EXISTS (SELECT 1 FROM sy_run_leases WHERE project = $1 AND run_id = $2 AND owner = $5 FOR SHARE)
       ON CONFLICT (project, run_id, seq) DO NOTHING`,
      [this.project, this.runId, seqs, lines, this.owner],
    );
    if (rowCount === batch.length) return;
    // Fewer rows: an earlier try of this batch landed before its connection dropped, or another process owns the run
    // now.
    const { rows } = await this.db.query<{ seq: number; event: string }>(
      'SELECT seq, event FROM sy_journal_events WHERE project = $1 AND run_id = $2 AND seq = ANY($3::int[])',
      [this.project, this.runId, seqs],
    );
    const landed = new Map(rows.map((r) => [r.seq, r.event]));
    const missing = batch.filter((b) => landed.get(b.seq) === undefined);
    const different = batch.find((b) => landed.has(b.seq) && landed.get(b.seq) !== b.line);
    if (different)
      throw new SwitchyardError(
        'lease-held',
        `journal ${this.where}: event ${different.seq} was written by another process; this process no longer owns the run`,
      );
    if (missing.length)
      throw new SwitchyardError(
        'lease-held',
        `journal ${this.where}: this process (${this.owner}) no longer holds the run's lease; its events were not written`,
      );
  }
}

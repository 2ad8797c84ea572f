import { SwitchyardError } from '../../errors';
import { JOURNAL_VERSION, type JournalEntry, type JournalEvent } from '../../journal/journalEvent';
import type { JournalSink } from '../journalStore';
import type { PgConnection } from './pgConnection';

/**
 * Appends a run's journal events as rows. `append(entry, true)` resolves
 * once the row (and every row before it) is committed; `false` rows go out
 * with the next group commit, all queued rows in one INSERT. A row is only
 * written while this process holds the run's lease: a process that lost the
 * run (its lease taken over) cannot add to the journal the new owner
 * resumes from. A batch retried after a lost connection is checked against
 * what landed, so no event is written twice.
 */
export class PgJournalSink implements JournalSink {
  private pending: { seq: number; line: string }[] = [];
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly db: PgConnection,
    private readonly project: string,
    readonly runId: string,
    private seq: number,
    private readonly owner: string,
    private readonly redact: (line: string) => string = (line) => line,
  ) {}

  get where(): string {
    return `PostgreSQL ${this.db.description} sy_journal_events (project ${this.project}, run ${this.runId})`;
  }

  get lastSeq(): number {
    return this.seq;
  }

  append(entry: JournalEntry, durable: boolean): { event: JournalEvent; durable: Promise<void> } {
    if (this.failure) throw this.failure;
    const event = { v: JOURNAL_VERSION, seq: ++this.seq, ts: new Date().toISOString(), runId: this.runId, ...entry } as JournalEvent;
    // Secrets never reach the table: the line is redacted before it is written.
    this.pending.push({ seq: event.seq, line: this.redact(JSON.stringify(event)) });
    const written = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    void this.kick();
    if (!durable) written.catch(() => undefined);
    return { event, durable: durable ? written : Promise.resolve() };
  }

  async sync(): Promise<void> {
    while (!this.failure && (this.pending.length || this.flushing)) await this.kick();
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    await this.sync();
  }

  private kick(): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.flush().finally(() => {
        this.flushing = undefined;
        if (this.pending.length && !this.failure) void this.kick();
      });
    }
    return this.flushing;
  }

  /** Never rejects: a failed batch fails its waiters and every event queued behind it, which is never written (it would leave a gap in seq). */
  private async flush(): Promise<void> {
    while (this.pending.length && !this.failure) {
      const batch = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        await this.insert(batch);
      } catch (error) {
        const failure = error instanceof SwitchyardError ? error : new Error(`journal ${this.where}: write failed: ${(error as Error).message}`, { cause: error });
        this.failure = failure;
        this.pending = [];
        for (const waiter of [...waiters, ...this.waiters.splice(0)]) waiter.reject(failure);
        return;
      }
      for (const waiter of waiters) waiter.resolve();
    }
  }

  private async insert(batch: readonly { seq: number; line: string }[]): Promise<void> {
    const seqs = batch.map((b) => b.seq);
    const lines = batch.map((b) => b.line);
    // FOR SHARE: a takeover (which updates the lease row) waits until these rows are committed, and an insert that
    // waited for a takeover re-reads the row and finds the new owner; so no row lands after the new owner read the journal.
    const { rowCount } = await this.db.query(
      `INSERT INTO sy_journal_events (project, run_id, seq, event)
       SELECT $1, $2, seq, event FROM unnest($3::int[], $4::text[]) AS x(seq, event)
       WHERE EXISTS (SELECT 1 FROM sy_run_leases WHERE project = $1 AND run_id = $2 AND owner = $5 FOR SHARE)
       ON CONFLICT (project, run_id, seq) DO NOTHING`,
      [this.project, this.runId, seqs, lines, this.owner],
    );
    if (rowCount === batch.length) return;
    // Fewer rows: an earlier try of this batch landed before its connection dropped, or another process owns the run now.
    const { rows } = await this.db.query<{ seq: number; event: string }>(
      'SELECT seq, event FROM sy_journal_events WHERE project = $1 AND run_id = $2 AND seq = ANY($3::int[])',
      [this.project, this.runId, seqs],
    );
    const landed = new Map(rows.map((r) => [r.seq, r.event]));
    const missing = batch.filter((b) => landed.get(b.seq) === undefined);
    const different = batch.find((b) => landed.has(b.seq) && landed.get(b.seq) !== b.line);
    if (different) throw new SwitchyardError('lease-held', `journal ${this.where}: event ${different.seq} was written by another process; this process no longer owns the run`);
    if (missing.length) throw new SwitchyardError('lease-held', `journal ${this.where}: this process (${this.owner}) no longer holds the run's lease; its events were not written`);
  }
}

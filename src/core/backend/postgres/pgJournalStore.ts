import { parseJournalLines } from '../../journal/journalReader';
import type { JournalSink, JournalStore } from '../../journal/journalStore';
import type { PgConnection } from './pgConnection';
import { PgJournalSink } from './pgJournalSink';

/**
 * Journals in `sy_journal_events`: append-only rows ordered per run by seq, validated on read like the files' lines.
 */
export class PgJournalStore implements JournalStore {
  constructor(
    private readonly db: PgConnection,
    private readonly project: string,
  ) {}

  async read(runId: string) {
    const where = `PostgreSQL ${this.db.description} sy_journal_events (project ${this.project}, run ${runId})`;
    const { rows } = await this.db.query<{ seq: number; event: string }>(
      'SELECT seq, event FROM sy_journal_events WHERE project = $1 AND run_id = $2 ORDER BY seq',
      [this.project, runId],
    );
    return {
      ...parseJournalLines(
        rows.map((r) => r.event),
        (i) => `${where} seq ${rows[i]!.seq}`,
      ),
      where,
    };
  }

  /** Rows are written in transactions: there is never a torn row to drop. */
  async dropTornTail(): Promise<void> {}

  async openSink(
    runId: string,
    lastSeq: number,
    owner: string,
    redact?: (line: string) => string,
  ): Promise<JournalSink> {
    return new PgJournalSink(this.db, this.project, runId, lastSeq, owner, redact);
  }
}

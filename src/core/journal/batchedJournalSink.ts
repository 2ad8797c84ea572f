import { SwitchyardError } from '../errors';
import type { JournalSink } from './journalStore';
import { JOURNAL_VERSION, type JournalEntry, type JournalEvent } from './journalEvent';

/** One event as written: its seq and its JSON line (redacted, no newline). */
export interface JournalLine {
  seq: number;
  line: string;
}

/**
 * A journal sink with group commit, whatever it writes to. Every event gets
 * the next `seq`. `append(entry, true)` resolves once the event (and every
 * event before it) is durable; `append(entry, false)` queues it for the next
 * group commit and resolves at once. Batches are written one at a time:
 * what is queued while one is written goes out in the next. After a failed
 * batch nothing more is written (a later batch would leave a gap in seq):
 * its waiters and every event queued behind it get the failure, and later
 * appends throw it. `redact` cleans each line of secret values before it is
 * written.
 */
export abstract class BatchedJournalSink implements JournalSink {
  private pending: JournalLine[] = [];
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;

  protected constructor(
    readonly runId: string,
    private seq: number,
    private readonly redact: (line: string) => string = (line) => line,
  ) {}

  abstract get where(): string;

  /** Writes one batch durably (in seq order), or throws. */
  protected abstract writeBatch(batch: readonly JournalLine[]): Promise<void>;

  abstract close(): Promise<void>;

  get lastSeq(): number {
    return this.seq;
  }

  append(entry: JournalEntry, durable: boolean): { event: JournalEvent; durable: Promise<void> } {
    if (this.failure) throw this.failure;
    const event = {
      v: JOURNAL_VERSION,
      seq: ++this.seq,
      ts: new Date().toISOString(),
      runId: this.runId,
      ...entry,
    } as JournalEvent;
    // Secrets never reach the journal: the line is redacted before it is written.
    this.pending.push({ seq: event.seq, line: this.redact(JSON.stringify(event)) });
    const written = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    void this.kick();
    if (!durable) written.catch(() => undefined);
    return { event, durable: durable ? written : Promise.resolve() };
  }

  /** Waits until everything appended so far is durable. */
  async sync(): Promise<void> {
    while (!this.failure && (this.pending.length || this.flushing !== undefined)) await this.kick();
    if (this.failure) throw this.failure;
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

  /** Never rejects: a failure goes to the waiters. */
  private async flush(): Promise<void> {
    while (this.pending.length && !this.failure) {
      const batch = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        await this.writeBatch(batch);
      } catch (error) {
        const failure =
          error instanceof SwitchyardError
            ? error
            : new Error(`journal ${this.where}: write failed: ${(error as Error).message}`, { cause: error });
        this.failure = failure;
        this.pending = [];
        for (const waiter of [...waiters, ...this.waiters.splice(0)]) waiter.reject(failure);
        return;
      }
      for (const waiter of waiters) waiter.resolve();
    }
  }
}

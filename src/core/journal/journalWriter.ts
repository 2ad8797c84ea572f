import { open, type FileHandle } from 'node:fs/promises';
import type { JournalSink } from '../backend/journalStore';
import { JOURNAL_VERSION, type JournalEntry, type JournalEvent } from './journalEvent';

/** `strict`: every event is durable before its call starts or its result is reported. `on`: group commit; only `never` intents wait. */
export type Durability = 'strict' | 'on';

/**
 * Appends journal events through one open file descriptor. Every event gets
 * the next `seq`. `append(entry, true)` resolves once the line (and every line
 * before it) is on disk (fdatasync); `append(entry, false)` queues it for the
 * next group commit and resolves at once. `redact` cleans each line of
 * secret values before it is written.
 */
export class JournalWriter implements JournalSink {
  private pending: string[] = [];
  private waiters: (() => void)[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    readonly runId: string,
    private seq: number,
    private readonly redact: (line: string) => string = (line) => line,
  ) {}

  /** Opens `file` for appending; `lastSeq` is the seq of the last event already in it (0 for a new journal). */
  static async open(file: string, runId: string, lastSeq: number, redact?: (line: string) => string): Promise<JournalWriter> {
    return new JournalWriter(file, await open(file, 'a'), runId, lastSeq, redact);
  }

  get where(): string {
    return this.file;
  }

  get lastSeq(): number {
    return this.seq;
  }

  append(entry: JournalEntry, durable: boolean): { event: JournalEvent; durable: Promise<void> } {
    if (this.failure) throw this.failure;
    const event = { v: JOURNAL_VERSION, seq: ++this.seq, ts: new Date().toISOString(), runId: this.runId, ...entry } as JournalEvent;
    // Secrets never reach the file: the line is redacted before it is written.
    this.pending.push(`${this.redact(JSON.stringify(event))}\n`);
    const written = new Promise<void>((resolve) => this.waiters.push(resolve));
    const done = this.kick().then(() => written);
    if (!durable) done.catch(() => undefined);
    return { event, durable: durable ? done : Promise.resolve() };
  }

  /** Waits until everything appended so far is durable. */
  async sync(): Promise<void> {
    while (this.pending.length || this.flushing) await this.kick();
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    await this.sync().finally(() => this.handle.close());
  }

  private kick(): Promise<void> {
    if (!this.flushing) {
      this.flushing = this.flush().finally(() => {
        this.flushing = undefined;
        if (this.pending.length) void this.kick();
      });
    }
    return this.flushing;
  }

  /** One group commit: everything queued goes out in one write and one fdatasync. */
  private async flush(): Promise<void> {
    while (this.pending.length) {
      const lines = this.pending.join('');
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        await this.handle.write(lines);
        await this.handle.datasync();
      } catch (error) {
        this.failure = new Error(`journal ${this.file}: write failed: ${(error as Error).message}`, { cause: error });
        throw this.failure;
      }
      for (const resolve of waiters) resolve();
    }
  }
}

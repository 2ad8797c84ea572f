import { open, type FileHandle } from 'node:fs/promises';
import { BatchedJournalSink, type JournalLine } from './batchedJournalSink';

/**
 * `strict`: every event is durable before its call starts or its result is reported. `on`: group commit; only `never`
 * intents wait.
 */
export type Durability = 'strict' | 'on';

/**
 * Appends journal events to a JSONL file through one open file descriptor:
 * one group commit is one write and one fdatasync.
 */
export class JournalWriter extends BatchedJournalSink {
  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    runId: string,
    lastSeq: number,
    redact?: (line: string) => string,
  ) {
    super(runId, lastSeq, redact);
  }

  /** Opens `file` for appending; `lastSeq` is the seq of the last event already in it (0 for a new journal). */
  static async open(
    file: string,
    runId: string,
    lastSeq: number,
    redact?: (line: string) => string,
  ): Promise<JournalWriter> {
    return new JournalWriter(file, await open(file, 'a'), runId, lastSeq, redact);
  }

  get where(): string {
    return this.file;
  }

  async close(): Promise<void> {
    await this.sync().finally(() => this.handle.close());
  }

  protected async writeBatch(batch: readonly JournalLine[]): Promise<void> {
    await this.handle.write(batch.map((b) => `${b.line}\n`).join(''));
    await this.handle.datasync();
  }
}

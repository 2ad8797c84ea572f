import type { JournalEntry, JournalEvent } from './journalEvent';
import type { JournalRead } from './journalReader';

/** Where a run's journal events go, in order, each with the next `seq`. */
export interface JournalSink {
  readonly runId: string;
  /** Names the journal in messages: a file path, or the table and run. */
  readonly where: string;
  readonly lastSeq: number;
  /**
   * `durable: true` resolves once the event (and all before it) is durable; `false` queues it for the next group
   * commit.
   */
  append(entry: JournalEntry, durable: boolean): { event: JournalEvent; durable: Promise<void> };
  /** Waits until everything appended so far is durable. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** The durable journals of a project's runs. */
export interface JournalStore {
  /** Reads and validates run `runId`'s journal; damage other than a torn last line throws, naming where. */
  read(runId: string): Promise<JournalRead & { where: string }>;
  /** Cuts a torn last line (a crash mid-write) off, keeping `keepBytes`. */
  dropTornTail(runId: string, keepBytes: number): Promise<void>;
  /** Opens the journal for appending after `lastSeq`; `owner` is the process holding the run's lease. */
  openSink(runId: string, lastSeq: number, owner: string, redact?: (line: string) => string): Promise<JournalSink>;
}

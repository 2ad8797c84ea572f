import { mkdir, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { journalPath } from '../journal/journalFiles';
import { readJournal } from '../journal/journalReader';
import { JournalWriter } from '../journal/journalWriter';
import type { JournalSink, JournalStore } from '../journal/journalStore';

/** Journals as `runs/<id>/journal.jsonl`, appended through one descriptor with fdatasync. */
export class FilesJournalStore implements JournalStore {
  constructor(private readonly root: string) {}

  async read(runId: string) {
    const file = journalPath(this.root, runId);
    const read = await readJournal(file).catch((error: NodeJS.ErrnoException) => {
      // Names the file (fs errors such as EISDIR do not), keeping the code.
      if (!error.code || error.message.includes(file)) throw error;
      throw Object.assign(new Error(`${file}: ${error.message}`, { cause: error }), { code: error.code });
    });
    return { ...read, where: file };
  }

  dropTornTail(runId: string, keepBytes: number): Promise<void> {
    return truncate(journalPath(this.root, runId), keepBytes);
  }

  async openSink(
    runId: string,
    lastSeq: number,
    _owner: string,
    redact?: (line: string) => string,
  ): Promise<JournalSink> {
    const file = journalPath(this.root, runId);
    await mkdir(dirname(file), { recursive: true });
    return JournalWriter.open(file, runId, lastSeq, redact);
  }
}

import { journalPath } from './journalFiles';
import { readJournal as readJournalAt, type JournalRead } from './journalReader';

/** Reads the journal of run `runId` in the repository at `root`. */
export async function readJournal(root: string, runId: string): Promise<JournalRead & { file: string }> {
  const file = journalPath(root, runId);
  return { ...(await readJournalAt(file)), file };
}

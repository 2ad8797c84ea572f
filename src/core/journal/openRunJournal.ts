import { truncate } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DurableCalls } from './durableCalls';
import { readJournal } from './journalReader';
import { JournalWriter, type Durability } from './journalWriter';

export interface RunJournal {
  writer: JournalWriter;
  calls: DurableCalls;
  /** Things the operator should know, e.g. a torn last line that was dropped. */
  warnings: string[];
}

/** Starts a new run's journal with a `run-started` event. */
export async function startRunJournal(
  file: string,
  runId: string,
  durability: Durability,
  info: { lane: string; attempt: number; owner: string },
  redact?: (line: string) => string,
): Promise<RunJournal> {
  await mkdir(dirname(file), { recursive: true });
  const writer = await JournalWriter.open(file, runId, 0, redact);
  await writer.append({ type: 'run-started', ...info }, true).durable;
  return { writer, calls: new DurableCalls(writer, durability), warnings: [] };
}

/**
 * Reopens an interrupted run's journal for resume. A torn last line is cut
 * off and recorded as a warning; any other damage throws (naming file and
 * line) before anything is written.
 */
export async function resumeRunJournal(
  file: string,
  runId: string,
  durability: Durability,
  owner: string,
  previousOwner?: string,
  redact?: (line: string) => string,
): Promise<RunJournal> {
  const read = await readJournal(file);
  const warnings: string[] = [];
  if (read.tornTail) {
    await truncate(file, read.tornTail.keepBytes);
    warnings.push(`${file}:${read.tornTail.line}: torn last line (a crash mid-write) was dropped`);
  }
  const writer = await JournalWriter.open(file, runId, read.events.length, redact);
  for (const message of warnings) writer.append({ type: 'warning', message }, false);
  await writer.append({ type: 'resumed', owner, ...(previousOwner ? { previousOwner } : {}) }, true).durable;
  return { writer, calls: new DurableCalls(writer, durability, read.events), warnings };
}

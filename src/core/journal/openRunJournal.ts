import type { JournalSink, JournalStore } from '../backend/journalStore';
import { DurableCalls } from './durableCalls';
import type { Durability } from './journalWriter';

export interface RunJournal {
  writer: JournalSink;
  calls: DurableCalls;
  /** Things the operator should know, e.g. a torn last line that was dropped. */
  warnings: string[];
}

/** Starts a new run's journal with a `run-started` event. */
export async function startRunJournal(
  journals: JournalStore,
  runId: string,
  durability: Durability,
  info: { lane: string; attempt: number; owner: string },
  redact?: (line: string) => string,
): Promise<RunJournal> {
  const writer = await journals.openSink(runId, 0, info.owner, redact);
  await writer.append({ type: 'run-started', ...info }, true).durable;
  return { writer, calls: new DurableCalls(writer, durability), warnings: [] };
}

/**
 * Reopens an interrupted run's journal for resume. A torn last line is cut
 * off and recorded as a warning; any other damage throws (naming where)
 * before anything is written.
 */
export async function resumeRunJournal(
  journals: JournalStore,
  runId: string,
  durability: Durability,
  owner: string,
  previousOwner?: string,
  redact?: (line: string) => string,
): Promise<RunJournal> {
  const read = await journals.read(runId);
  const warnings: string[] = [];
  if (read.tornTail) {
    await journals.dropTornTail(runId, read.tornTail.keepBytes);
    warnings.push(`${read.where}:${read.tornTail.line}: torn last line (a crash mid-write) was dropped`);
  }
  const writer = await journals.openSink(runId, read.events.length, owner, redact);
  for (const message of warnings) writer.append({ type: 'warning', message }, false);
  await writer.append({ type: 'resumed', owner, ...(previousOwner ? { previousOwner } : {}) }, true).durable;
  return { writer, calls: new DurableCalls(writer, durability, read.events), warnings };
}

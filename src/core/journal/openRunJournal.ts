import type { JournalSink, JournalStore } from './journalStore';
import { SwitchyardError, errorMessage, isSwitchyardError } from '../errors';
import { DurableCalls, type ResumeCounts } from './durableCalls';
import { resumeCountsOf } from './resumeCounts';
import type { Durability } from './journalWriter';

export interface RunJournal {
  writer: JournalSink;
  calls: DurableCalls;
  /** Things the operator should know, e.g. a torn last line that was dropped. */
  warnings: string[];
  /**
   * What the earlier resumes of the run did (read from the journal); this process's own counts are in `calls.counts`.
   */
  earlierResumes?: ResumeCounts;
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

/** File-system errors that mean the journal is there but cannot be read (not a passing fault). */
const UNREADABLE = new Set(['EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'ELOOP', 'EILSEQ']);

/**
 * Reopens an interrupted run's journal for resume. A torn last line is cut
 * off and recorded as a warning; any other damage throws (naming where)
 * before anything is written. A journal that is missing, empty or
 * unreadable throws `journal-missing`: the run started (its journal's
 * first event is written before anything else), so an empty history means
 * it was lost, and starting over could repeat calls, `never` ones too.
 */
export async function resumeRunJournal(
  journals: JournalStore,
  runId: string,
  durability: Durability,
  owner: string,
  previousOwner?: string,
  redact?: (line: string) => string,
): Promise<RunJournal> {
  const read = await journals.read(runId).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (isSwitchyardError(error) || !code || !UNREADABLE.has(code)) throw error;
    throw new SwitchyardError(
      'journal-missing',
      `the journal of run ${runId} cannot be read (${errorMessage(error)}); ${NOT_RESTARTED}`,
      { cause: error },
    );
  });
  if (!read.events.length)
    throw new SwitchyardError(
      'journal-missing',
      `${read.where} is missing or empty, but run ${runId} had started; ${NOT_RESTARTED}`,
    );
  const warnings: string[] = [];
  if (read.tornTail) {
    await journals.dropTornTail(runId, read.tornTail.keepBytes);
    warnings.push(`${read.where}:${read.tornTail.line}: torn last line (a crash mid-write) was dropped`);
  }
  const writer = await journals.openSink(runId, read.events.length, owner, redact);
  for (const message of warnings) writer.append({ type: 'warning', message }, false);
  await writer.append({ type: 'resumed', owner, ...(previousOwner ? { previousOwner } : {}) }, true).durable;
  return {
    writer,
    calls: new DurableCalls(writer, durability, read.events),
    warnings,
    earlierResumes: resumeCountsOf(read.events, false),
  };
}

const NOT_RESTARTED =
  'the calls it made are unknown, so it is not restarted from scratch (that could repeat a `never` call). Its worktree and branch are kept: check what it did, then retry the task';

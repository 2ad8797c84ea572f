import { readFile } from 'node:fs/promises';
import { SwitchyardError } from '../errors';
import { JournalEvent } from './journalEvent';
import { describeZodError } from '../model/zodIssues';

export interface JournalRead {
  events: JournalEvent[];
  /** Set when the last line was torn by a crash mid-write: its 1-based line number and where the good bytes end. */
  tornTail?: { line: number; keepBytes: number };
}

/**
 * Reads and validates a run's journal. A torn last line (crash mid-write) is
 * reported in `tornTail`, not thrown; any other damage — a garbage line, an
 * unknown event type, a seq gap — is an error naming the file and line.
 * A missing file reads as an empty journal.
 */
export async function readJournal(file: string): Promise<JournalRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [] };
    throw error;
  }
  const events: JournalEvent[] = [];
  let offset = 0;
  let lineNo = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    const terminated = end !== -1;
    const line = text.slice(offset, terminated ? end : text.length);
    lineNo += 1;
    const fail = (problem: string): never => {
      throw new SwitchyardError('journal-corrupt', `${file}:${lineNo}: ${problem}. The journal was not changed; resume stopped.`);
    };
    // A last line without its newline is a write that never completed (so never reported durable): torn.
    if (!terminated) return { events, tornTail: { line: lineNo, keepBytes: Buffer.byteLength(text.slice(0, offset)) } };
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      fail('not valid JSON');
    }
    const parsed = JournalEvent.safeParse(json);
    if (!parsed.success) {
      const type = (json as { type?: unknown })?.type;
      fail(parsed.error.issues.some((i) => i.path[0] === 'type') || typeof type !== 'string'
        ? `unknown event type ${JSON.stringify(type)}`
        : `invalid ${String(type)} event: ${describeZodError(parsed.error)}`);
    }
    const event = parsed.data!;
    const expected = events.length + 1;
    if (event.seq !== expected) fail(`seq ${event.seq} where ${expected} was expected (a gap or a repeat)`);
    events.push(event);
    offset = end + 1;
  }
  return { events };
}

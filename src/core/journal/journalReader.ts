import { readFile } from 'node:fs/promises';
import { SwitchyardError } from '../errors';
import { JournalEvent } from './journalEvent';
import { describeZodError } from '../model/zodIssues';

/** One schema per event type: the reader picks by `type` instead of trying the whole union. */
const EVENT_SCHEMAS = new Map(JournalEvent.options.map((schema) => [schema.shape.type.value as string, schema]));

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
  const lines = text.split('\n');
  // The text ends with a newline when every write completed, so the last piece is empty.
  const complete = lines.length - 1;
  const { events } = parseJournalLines(lines.slice(0, complete), (i) => `${file}:${i + 1}`);
  // A last line without its newline is a write that never completed (so never reported durable): torn.
  if (lines[complete]) {
    const keepBytes = Buffer.byteLength(text) - Buffer.byteLength(lines[complete]!);
    return { events, tornTail: { line: complete + 1, keepBytes } };
  }
  return { events };
}

/**
 * Validates journal lines in order: each must be JSON of a known event type
 * that passes its schema, with `seq` counting up from 1 without a gap.
 * `place(i)` names line i in the error (a file and line, or a table row).
 */
export function parseJournalLines(lines: readonly string[], place: (index: number) => string): { events: JournalEvent[] } {
  const events: JournalEvent[] = [];
  const fail = (index: number, problem: string): never => {
    throw new SwitchyardError('journal-corrupt', `${place(index)}: ${problem}. The journal was not changed; resume stopped.`);
  };
  for (let i = 0; i < lines.length; i++) {
    let json: unknown;
    try {
      json = JSON.parse(lines[i]!);
    } catch {
      fail(i, 'not valid JSON');
    }
    const type = (json as { type?: unknown } | null)?.type;
    const schema = typeof type === 'string' ? EVENT_SCHEMAS.get(type) : undefined;
    if (!schema) fail(i, `unknown event type ${JSON.stringify(type)}`);
    const parsed = schema!.safeParse(json);
    if (!parsed.success) fail(i, `invalid ${String(type)} event: ${describeZodError(parsed.error)}`);
    const event = parsed.data as JournalEvent;
    if (event.seq !== i + 1) fail(i, `seq ${event.seq} where ${i + 1} was expected (a gap or a repeat)`);
    events.push(event);
  }
  return { events };
}

import { SwitchyardError } from '../errors';
import { JournalEvent } from './journalEvent';
import { describeZodError } from '../model/zodIssues';
import { type JsonlCheck, type JsonlPolicy, parseJsonlLines, readJsonlFile } from '../store/jsonlFile';

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
  const read = await readJsonlFile(
    file,
    journalCheck(),
    journalPolicy((i) => `${file}:${i + 1}`),
  );
  return read.tornTail ? { events: read.values, tornTail: read.tornTail } : { events: read.values };
}

/**
 * Validates journal lines in order: each must be JSON of a known event type
 * that passes its schema, with `seq` counting up from 1 without a gap.
 * `place(i)` names line i in the error (a file and line, or a table row).
 */
export function parseJournalLines(
  lines: readonly string[],
  place: (index: number) => string,
): { events: JournalEvent[] } {
  return { events: parseJsonlLines(lines, journalCheck(), journalPolicy(place)).values };
}

/** Every line is an event (a blank one too): damage is `journal-corrupt`, naming the place. */
function journalPolicy(place: (index: number) => string): JsonlPolicy {
  const damaged = (where: string, problem: string) =>
    new SwitchyardError('journal-corrupt', `${where}: ${problem}. The journal was not changed; resume stopped.`);
  return { place, damaged, blank: 'damaged' };
}

function journalCheck(): JsonlCheck<JournalEvent> {
  return (json, i) => {
    const type = (json as { type?: unknown } | null)?.type;
    const schema = typeof type === 'string' ? EVENT_SCHEMAS.get(type) : undefined;
    if (!schema) return { problem: `unknown event type ${JSON.stringify(type)}` };
    const parsed = schema.safeParse(json);
    if (!parsed.success) return { problem: `invalid ${String(type)} event: ${describeZodError(parsed.error)}` };
    const event = parsed.data as JournalEvent;
    if (event.seq !== i + 1) return { problem: `seq ${event.seq} where ${i + 1} was expected (a gap or a repeat)` };
    return { value: event };
  };
}

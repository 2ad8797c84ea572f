import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { describeZodError } from '../model/zodIssues';

/** Checks one JSON value read from line `index` (0-based): the value, or why the line is damaged. */
export type JsonlCheck<T> = (json: unknown, index: number) => { value: T } | { problem: string };

/** A zod schema as a line check; `what` names the record in the problem (`not a guard event: …`). */
export function zodLine<T>(schema: z.ZodType<T>, what: string): JsonlCheck<T> {
  return (json) => {
    const parsed = schema.safeParse(json);
    return parsed.success ? { value: parsed.data } : { problem: `not ${what}: ${describeZodError(parsed.error)}` };
  };
}

export interface JsonlPolicy {
  /** Names line `index` (0-based) in messages; `file:line` by default. */
  place?: (index: number) => string;
  /**
   * A damaged complete line (not JSON, or refused by the check): an error,
   * built by this function and thrown, naming the place; or `skip` (counted
   * in `damaged`) for diagnostic logs whose writer does not repair a torn tail.
   */
  damaged: 'skip' | ((where: string, problem: string) => Error);
  /** Whitespace-only lines carry no record and are skipped, unless `damaged` (the journal: every line is an event). */
  blank?: 'skip' | 'damaged';
}

export interface JsonlRead<T> {
  values: T[];
  /** The last line had no newline: a write that never completed. Dropped; the caller warns (or repairs). */
  tornTail?: { line: number; keepBytes: number };
  /** Complete lines skipped as damaged (only with `damaged: 'skip'`), 1-based. */
  damaged: { line: number; problem: string }[];
}

/** Parses one raw line: the JSON value, or the problem. */
export function parseJsonLine(raw: string): { json: unknown } | { problem: string } {
  try {
    return { json: JSON.parse(raw) };
  } catch (error) {
    return { problem: `not valid JSON (${(error as Error).message})` };
  }
}

/** Checks complete lines in order (see `JsonlPolicy` for what a damaged line does). */
export function parseJsonlLines<T>(
  lines: readonly string[],
  check: JsonlCheck<T>,
  policy: JsonlPolicy,
): Omit<JsonlRead<T>, 'tornTail'> {
  const values: T[] = [];
  const damaged: JsonlRead<T>['damaged'] = [];
  const place = policy.place ?? ((i: number) => `line ${i + 1}`);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!raw.trim() && policy.blank !== 'damaged') continue;
    const line = parseJsonLine(raw);
    const result = 'json' in line ? check(line.json, i) : line;
    if ('value' in result) {
      values.push(result.value);
      continue;
    }
    if (policy.damaged === 'skip') damaged.push({ line: i + 1, problem: result.problem });
    else throw policy.damaged(place(i), result.problem);
  }
  return { values, damaged };
}

/**
 * The one way a JSONL file is read (journal, guard log, run events, trace).
 * Every complete line (ending in a newline) goes through `check`; a last
 * line without its newline is a write that never completed — the torn tail —
 * and is dropped and reported in `tornTail`, never an error; a damaged line
 * before it follows `policy.damaged`. A missing file reads as empty.
 */
export function parseJsonlText<T>(text: string, check: JsonlCheck<T>, policy: JsonlPolicy): JsonlRead<T> {
  const lines = text.split('\n');
  const complete = lines.length - 1;
  const read: JsonlRead<T> = parseJsonlLines(lines.slice(0, complete), check, policy);
  if (lines[complete]) {
    const keepBytes = Buffer.byteLength(text) - Buffer.byteLength(lines[complete]!);
    read.tornTail = { line: complete + 1, keepBytes };
  }
  return read;
}

/**
 * Reads `file` with `parseJsonlText`; the default place is `file:line`. A missing file is empty; other read errors are
 * thrown.
 */
export async function readJsonlFile<T>(file: string, check: JsonlCheck<T>, policy: JsonlPolicy): Promise<JsonlRead<T>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { values: [], damaged: [] };
    throw error;
  }
  return parseJsonlText(text, check, { place: (i) => `${file}:${i + 1}`, ...policy });
}

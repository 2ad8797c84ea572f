import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { SwitchyardError } from '../errors';
import { describeZodError } from '../model/zodIssues';

/**
 * Reads a small JSON settings file as JSON. A missing file is `undefined`; an
 * unreadable or malformed one is an error naming the file (`hint` says how to
 * fix it, after the parse error).
 */
export async function readJsonFile(file: string, hint = ''): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SwitchyardError('invalid-input', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  return parseJsonText(text, file, hint);
}

/** `text` (read from `file`) as JSON; malformed, an error naming the file (and `hint`). */
export function parseJsonText(text: string, file: string, hint = ''): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SwitchyardError('invalid-input', `${file}: not valid JSON (${(error as Error).message})${hint}`);
  }
}

/**
 * Reads a small JSON settings file and parses it with `schema`. A missing file
 * is `undefined`; an unreadable, malformed or invalid one is an error naming
 * the file (and the field).
 */
export async function readJsonConfig<T>(file: string, schema: z.ZodType<T>): Promise<T | undefined> {
  const json = await readJsonFile(file);
  if (json === undefined) return undefined;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new SwitchyardError('invalid-input', `${file}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

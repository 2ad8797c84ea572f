import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { readJsonlFile, zodLine } from '../store/jsonlFile';
import { readJsonlNewest } from '../store/readJsonlNewest';
import { STATE_DIR, ensureStateDir } from '../store/stateDir';

/** Where every guard verdict of a repository is appended: `<repo>/.switchyard/guards.jsonl`. */
export const GUARD_LOG_FILE = 'guards.jsonl';

export function guardLogPath(root: string): string {
  return join(root, STATE_DIR, GUARD_LOG_FILE);
}

/** One piece of evidence: a file and line when there is one, and a message that never holds a secret. */
export const GuardEvidence = z
  .object({ file: z.string().min(1).optional(), line: z.number().int().min(1).optional(), message: z.string() })
  .strict();
export type GuardEvidence = z.infer<typeof GuardEvidence>;

const common = {
  v: z.literal(1),
  ts: z.iso.datetime(),
  guard: z.string().min(1),
  rule: z.string().min(1),
  evidence: z.array(GuardEvidence),
  durationMs: z.number().min(0),
  /** What was checked, e.g. `push origin refs/heads/main`. */
  subject: z.string().optional(),
  runId: z.string().optional(),
};

/**
 * A guard's verdict. `pass`, `block` and `warn` are `guard.verdict` events;
 * an internal error in a guard (which lets the flow continue) is a
 * `guard.error` event with the error's message.
 */
export const GuardEvent = z.discriminatedUnion('verdict', [
  z.object({ ...common, type: z.literal('guard.verdict'), verdict: z.literal('pass') }).strict(),
  z.object({ ...common, type: z.literal('guard.verdict'), verdict: z.literal('block') }).strict(),
  z.object({ ...common, type: z.literal('guard.verdict'), verdict: z.literal('warn') }).strict(),
  z.object({ ...common, type: z.literal('guard.error'), verdict: z.literal('error'), error: z.string() }).strict(),
]);
export type GuardEvent = z.infer<typeof GuardEvent>;
export type GuardVerdict = GuardEvent['verdict'];

/**
 * Appends one verdict (validated) and flushes it to disk before returning.
 * The caller decides what a failed write means; guards ignore it (fail-safe).
 */
export async function appendGuardEvent(root: string, event: GuardEvent): Promise<void> {
  const line = `${JSON.stringify(GuardEvent.parse(event))}\n`;
  await ensureStateDir(root);
  const handle = await open(guardLogPath(root), 'a');
  try {
    await handle.appendFile(line);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Reads the verdicts of a repository, oldest first (`limit` keeps the newest
 * n, read from the file's end). A torn last line (a crash mid-write) is
 * skipped; any other bad line is an error that names the file and line.
 */
export async function readGuardEvents(root: string, options: { limit?: number } = {}): Promise<GuardEvent[]> {
  if (options.limit !== undefined) return (await readNewestGuardEvents(root, options.limit)).events;
  const file = guardLogPath(root);
  const read = await readJsonlFile(file, zodLine(GuardEvent, 'a guard event'), { damaged: damagedIn }).catch(
    (error: unknown) => rethrow(file, error),
  );
  return read.values;
}

/**
 * The newest `limit` verdicts, oldest first, read from the end of the log (the cost follows `limit`, not the log's
 * length), and whether older ones exist. Bad lines among them are errors as in `readGuardEvents`.
 */
export async function readNewestGuardEvents(
  root: string,
  limit: number,
): Promise<{ events: GuardEvent[]; older: boolean }> {
  const file = guardLogPath(root);
  const read = await readJsonlNewest(file, zodLine(GuardEvent, 'a guard event'), { damaged: damagedIn }, limit).catch(
    (error: unknown) => rethrow(file, error),
  );
  return { events: read.values, older: read.older };
}

function damagedIn(where: string, problem: string): SwitchyardError {
  return new SwitchyardError('store-corrupt', `${where}: ${problem}`);
}

function rethrow(file: string, error: unknown): never {
  if (error instanceof SwitchyardError) throw error;
  throw new SwitchyardError('store-corrupt', `cannot read ${file}: ${(error as Error).message}`, { cause: error });
}

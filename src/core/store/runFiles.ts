import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonlFile, zodLine } from './jsonlFile';
import { STATE_DIR } from './stateDir';

export { RunEventLog, DEFAULT_RUN_OUTPUT, type RunOutputLimits } from './runEventLog';

/** Where a run's files live: `<repo>/.switchyard/runs/<runId>/`. */
export function runDir(root: string, runId: string): string {
  return join(root, STATE_DIR, 'runs', runId);
}

export function diffPath(root: string, runId: string): string {
  return join(runDir(root, runId), 'diff.patch');
}

export function eventsPath(root: string, runId: string): string {
  return join(runDir(root, runId), 'events.jsonl');
}

/** One line of `events.jsonl`: a lane event or a host decision, stamped by `RunEventLog`. */
export const RunLogLine = z.looseObject({ ts: z.string(), type: z.string() });
export type RunLogLine = z.infer<typeof RunLogLine>;

/**
 * The run's log in time order (`ts`, then `seq`: a capped run's tail is written
 * after later decisions), one line an event: a stored batch of log lines (see
 * RunEventLog) comes back as one log event a line.
 */
export async function readRunLog(file: string): Promise<RunLogLine[]> {
  // A diagnostic log: a torn or damaged line (the writer appends after a crash without repairing) is skipped;
  // a missing or unreadable file reads as empty.
  const read = await readJsonlFile(file, zodLine(RunLogLine, 'a run event'), { damaged: 'skip' }).catch(
    () => undefined,
  );
  const lines = read?.values ?? [];
  const inOrder = lines.every((line, i) => i === 0 || before(lines[i - 1]!, line) <= 0);
  return (inOrder ? lines : [...lines].sort(before)).flatMap(unbatch);
}

function before(a: RunLogLine, b: RunLogLine): number {
  if (a.ts !== b.ts) return String(a.ts) < String(b.ts) ? -1 : 1;
  return typeof a.seq === 'number' && typeof b.seq === 'number' ? a.seq - b.seq : 0;
}

function unbatch(line: RunLogLine): RunLogLine[] {
  const event = line.event as { type?: unknown; stream?: unknown; lines?: unknown } | undefined;
  if (event?.type !== 'log' || !Array.isArray(event.lines)) return [line];
  return event.lines.map((l) => ({ ...line, event: { type: 'log', stream: event.stream, line: String(l) } }));
}

export async function writeDiff(root: string, runId: string, diff: string): Promise<string> {
  const file = diffPath(root, runId);
  await mkdir(runDir(root, runId), { recursive: true });
  await writeFile(file, diff);
  return file;
}

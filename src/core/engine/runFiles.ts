import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_DIR } from '../store/stateDir';

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

export interface RunLogLine {
  ts: string;
  type: string;
  [key: string]: unknown;
}

/** The run's log, one line an event: a stored batch of log lines (see RunEventLog) comes back as one log event a line. */
export async function readRunLog(file: string): Promise<RunLogLine[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return unbatch(JSON.parse(line) as RunLogLine);
      } catch {
        return [];
      }
    });
}

function unbatch(line: RunLogLine): RunLogLine[] {
  const event = line.event as { type?: unknown; stream?: unknown; lines?: unknown } | undefined;
  if (!event || event.type !== 'log' || !Array.isArray(event.lines)) return [line];
  return event.lines.map((l) => ({ ...line, event: { type: 'log', stream: event.stream, line: String(l) } }));
}

export async function writeDiff(root: string, runId: string, diff: string): Promise<string> {
  const file = diffPath(root, runId);
  await mkdir(runDir(root, runId), { recursive: true });
  await writeFile(file, diff);
  return file;
}

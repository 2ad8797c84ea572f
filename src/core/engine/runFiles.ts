import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonlFile, zodLine } from '../store/jsonlFile';
import { STATE_DIR } from '../store/stateDir';

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

/** Appends lane events and host decisions of one run, one JSON object a line. */
export class RunEventLog {
  private pending: Promise<void> = Promise.resolve();
  private ready: Promise<void>;

  constructor(readonly file: string) {
    this.ready = mkdir(join(file, '..'), { recursive: true }).then(() => undefined);
  }

  append(type: string, body: Record<string, unknown>): void {
    const line = `${JSON.stringify({ ts: new Date().toISOString(), type, ...body })}\n`;
    this.pending = this.pending.then(() => this.ready).then(() => appendFile(this.file, line)).catch(() => undefined);
  }

  flush(): Promise<void> {
    return this.pending;
  }
}

/**
 * The events of a run, oldest first. A diagnostic log: a torn or damaged line
 * (the writer appends after a crash without repairing) is skipped; a missing
 * or unreadable file reads as empty.
 */
export async function readRunLog(file: string): Promise<RunLogLine[]> {
  const read = await readJsonlFile(file, zodLine(RunLogLine, 'a run event'), { damaged: 'skip' }).catch(() => undefined);
  return read?.values ?? [];
}

export async function writeDiff(root: string, runId: string, diff: string): Promise<string> {
  const file = diffPath(root, runId);
  await mkdir(runDir(root, runId), { recursive: true });
  await writeFile(file, diff);
  return file;
}

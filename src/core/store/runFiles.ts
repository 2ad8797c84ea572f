import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_DIR } from './stateDir';

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

export async function readRunLog(file: string): Promise<RunLogLine[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as RunLogLine];
      } catch {
        return [];
      }
    });
}

export async function writeDiff(root: string, runId: string, diff: string): Promise<string> {
  const file = diffPath(root, runId);
  await mkdir(runDir(root, runId), { recursive: true });
  await writeFile(file, diff);
  return file;
}

import { rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AppendHandle } from './appendHandle';
import { readJsonlFile, zodLine } from './jsonlFile';
import { STATE_DIR, ensureStateDir } from './stateDir';

/** `<repo>/.switchyard/trace.jsonl`: the scheduler's decisions and per-tick signals. */
export const TRACE_FILE = 'trace.jsonl';
/** The previous trace, after one rotation. */
export const TRACE_ROTATED_FILE = 'trace.1.jsonl';
/** When the trace passes this size it is renamed to `trace.1.jsonl` (replacing the older one) and a new one starts. */
export const TRACE_MAX_BYTES = 4 * 1024 * 1024;

export function tracePath(root: string): string {
  return join(root, STATE_DIR, TRACE_FILE);
}

/**
 * One trace line: `decision` (why this task, lane, now; why waiting, retried, blocked), `signals` (per tick), `drain`
 * (start/end).
 */
export const TraceLine = z.looseObject({
  ts: z.string(),
  type: z.enum(['decision', 'signals', 'drain']),
  kind: z.string().optional(),
  task: z.string().optional(),
  run: z.string().optional(),
  message: z.string().optional(),
});
export type TraceLine = z.infer<typeof TraceLine>;

/**
 * Appends trace lines in order, without blocking the caller; bounded in size
 * (one rotation). Losing a trace line never fails a run.
 */
export class TraceLog {
  private pending: Promise<void> = Promise.resolve();
  private written = -1;
  private readonly out: AppendHandle;

  constructor(
    readonly root: string,
    private readonly maxBytes = TRACE_MAX_BYTES,
  ) {
    this.out = new AppendHandle(tracePath(root));
  }

  append(line: Omit<TraceLine, 'ts'>): void {
    const text = `${JSON.stringify({ ts: new Date().toISOString(), ...line })}\n`;
    this.pending = this.pending.then(() => this.write(text)).catch(() => undefined);
  }

  /** Resolves once every line appended so far is in the file, and closes it (a later line opens it again). */
  flush(): Promise<void> {
    this.pending = this.pending.then(() => this.out.close());
    return this.pending;
  }

  private async write(text: string): Promise<void> {
    const file = tracePath(this.root);
    if (this.written < 0) {
      await ensureStateDir(this.root);
      this.written = (await stat(file).catch(() => undefined))?.size ?? 0;
    }
    if (this.written + text.length > this.maxBytes) {
      await this.out.close();
      await rename(file, join(this.root, STATE_DIR, TRACE_ROTATED_FILE)).catch(() => undefined);
      this.written = 0;
    }
    await this.out.append(text);
    this.written += Buffer.byteLength(text);
  }
}

/**
 * The trace lines (the rotated file first), oldest first. A diagnostic log:
 * torn and damaged lines are skipped; a missing or unreadable file reads as empty.
 */
export async function readTrace(root: string): Promise<TraceLine[]> {
  const check = zodLine(TraceLine, 'a trace line');
  const reads = await Promise.all(
    [TRACE_ROTATED_FILE, TRACE_FILE].map((f) =>
      readJsonlFile(join(root, STATE_DIR, f), check, { damaged: 'skip' }).catch(() => undefined),
    ),
  );
  return reads.flatMap((read) => read?.values ?? []);
}

import { constants } from 'node:fs';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { Run } from '../model/run';
import { Task } from '../model/task';
import { describeZodError } from '../model/zodIssues';

/**
 * How far the history is committed: every segment before `segment` whole, and `segment` up to `offset` bytes.
 * `state.json` carries it, so the rename of `state.json` is the one commit point of an update.
 */
export const HistoryMark = z.object({ segment: z.number().int().min(1), offset: z.number().int().min(0) }).strict();
export type HistoryMark = z.infer<typeof HistoryMark>;

export const EMPTY_HISTORY: HistoryMark = { segment: 1, offset: 0 };

/** One line of the history: a finished task with all its runs (the latest line for an id wins), or its removal. */
export const HistoryRecord = z.union([
  z.object({ task: Task, runs: z.array(Run) }).strict(),
  z.object({ removed: z.string() }).strict(),
]);
export type HistoryRecord = z.infer<typeof HistoryRecord>;
export type FinishedRecord = Extract<HistoryRecord, { task: unknown }>;

/** A segment is closed once it holds this much; the next append starts a new one. */
export const SEGMENT_BYTES = 1024 * 1024;

export function compareMarks(a: HistoryMark, b: HistoryMark): number {
  return a.segment - b.segment || a.offset - b.offset;
}

/**
 * The finished tasks of a project, append-only, in numbered JSONL segments under `.switchyard/history/`. Only the
 * bytes up to a committed mark count: an append first cuts whatever a crashed writer left beyond the mark, and a
 * reader never reads past it.
 */
export class TaskHistory {
  constructor(readonly dir: string) {}

  segmentPath(segment: number): string {
    return join(this.dir, `${String(segment).padStart(6, '0')}.jsonl`);
  }

  /** Appends `records` after `mark` durably (data synced before `state.json` names the new mark); the new mark. */
  async append(mark: HistoryMark, records: readonly HistoryRecord[]): Promise<HistoryMark> {
    if (!records.length) return mark;
    await mkdir(this.dir, { recursive: true });
    let { segment, offset } = mark;
    if (offset >= SEGMENT_BYTES) {
      await this.cut(segment, offset);
      segment += 1;
      offset = 0;
    }
    const bytes = Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const handle = await open(this.segmentPath(segment), constants.O_RDWR | constants.O_CREAT, 0o644);
    try {
      await handle.truncate(offset);
      await handle.write(bytes, 0, bytes.length, offset);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    if (offset === 0) await syncDir(this.dir);
    return { segment, offset: offset + bytes.length };
  }

  /** The records committed after `from` up to `to`, oldest first, each validated. */
  async readRange(from: HistoryMark, to: HistoryMark): Promise<HistoryRecord[]> {
    const out: HistoryRecord[] = [];
    for (let segment = from.segment; segment <= to.segment; segment++) {
      const start = segment === from.segment ? from.offset : 0;
      const end = segment === to.segment ? to.offset : undefined;
      if (end !== undefined && end <= start) continue;
      const bytes = await this.readSegment(segment, end);
      for (const line of lines(bytes, start)) out.push(this.parse(segment, line));
    }
    return out;
  }

  /** The committed records newest first, one segment read at a time (a page of the newest needs the last only). */
  async *newestFirst(mark: HistoryMark): AsyncGenerator<HistoryRecord> {
    for (let segment = mark.segment; segment >= 1; segment--) {
      const end = segment === mark.segment ? mark.offset : undefined;
      if (end === 0) continue;
      const bytes = await this.readSegment(segment, end);
      // Line by line from the end: a page of the newest decodes only the lines it shows.
      let stop = bytes.length;
      while (stop > 0) {
        while (stop > 0 && bytes[stop - 1] === 10) stop--;
        if (stop === 0) break;
        const start = bytes.lastIndexOf(10, stop - 1) + 1;
        yield this.parse(segment, { text: bytes.toString('utf8', start, stop), at: start });
        stop = start;
      }
    }
  }

  private async readSegment(segment: number, end: number | undefined): Promise<Buffer> {
    const path = this.segmentPath(segment);
    try {
      const bytes = await readFile(path);
      if (end !== undefined && bytes.length < end)
        throw new SwitchyardError(
          'store-corrupt',
          `${path} is shorter (${bytes.length} bytes) than the ${end} bytes state.json says were committed; restore it from a backup or remove .switchyard/history and the history mark from state.json`,
        );
      return end === undefined ? bytes : bytes.subarray(0, end);
    } catch (error) {
      if (error instanceof SwitchyardError) throw error;
      throw new SwitchyardError('store-corrupt', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
    }
  }

  private parse(segment: number, line: { text: string; at: number }): HistoryRecord {
    const where = `${this.segmentPath(segment)} at byte ${line.at}`;
    let json: unknown;
    try {
      json = JSON.parse(line.text);
    } catch (error) {
      throw new SwitchyardError('store-corrupt', `${where} is not valid JSON (${(error as Error).message})`);
    }
    const parsed = HistoryRecord.safeParse(json);
    if (!parsed.success)
      throw new SwitchyardError(
        'store-corrupt',
        `${where} does not match the expected shape: ${describeZodError(parsed.error)}`,
      );
    return parsed.data;
  }

  /** Cuts a closed segment at its committed end (a crashed writer may have left bytes after it). */
  private async cut(segment: number, offset: number): Promise<void> {
    const path = this.segmentPath(segment);
    const size = await stat(path).then(
      (s) => s.size,
      () => offset,
    );
    if (size <= offset) return;
    const handle = await open(path, 'r+');
    try {
      await handle.truncate(offset);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
}

function lines(bytes: Buffer, start: number): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let at = start;
  while (at < bytes.length) {
    let end = bytes.indexOf(10, at);
    if (end === -1) end = bytes.length;
    if (end > at) out.push({ text: bytes.toString('utf8', at, end), at });
    at = end + 1;
  }
  return out;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

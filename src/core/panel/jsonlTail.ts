import { open } from 'node:fs/promises';
import { parseJsonLine } from '../store/jsonlFile';

export interface TailRead {
  /** Complete new lines since the last read, parsed (lines that are not JSON are counted in `bad`). */
  lines: unknown[];
  bad: number;
  /** The file shrank or was replaced since the last read: `lines` start from its beginning again. */
  reset: boolean;
  /** The file does not exist (yet). */
  missing: boolean;
}

/**
 * Follows a growing JSONL file: each `read()` returns only the lines
 * appended since the previous one (a torn last line waits for its newline),
 * so a panel that refreshes often never re-reads a large log. A file that
 * shrank (rotated or truncated) is read again from its start. Lines are
 * parsed as `readJsonlFile` parses them (the torn-tail rule is the same); the
 * caller checks each value against its schema.
 */
export class JsonlTail {
  private offset = 0;
  private partial = '';

  constructor(
    readonly file: string,
    private readonly maxFirstRead = 8 * 1024 * 1024,
  ) {}

  async read(): Promise<TailRead> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const reset = this.offset > 0;
      this.offset = 0;
      this.partial = '';
      return { lines: [], bad: 0, reset, missing: true };
    }
    try {
      const { size } = await handle.stat();
      let reset = false;
      if (size < this.offset) {
        reset = true;
        this.offset = 0;
        this.partial = '';
      }
      // A huge first read only keeps the tail: the panel shows the newest lines.
      if (this.offset === 0 && size > this.maxFirstRead) {
        this.offset = size - this.maxFirstRead;
        this.partial = '';
        reset = true;
      }
      const length = size - this.offset;
      if (length === 0) return { lines: [], bad: 0, reset, missing: false };
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, this.offset);
      const skipFirst = reset && this.offset > 0; // started mid-line after skipping ahead
      this.offset += bytesRead;
      const text = this.partial + buffer.toString('utf8', 0, bytesRead);
      const parts = text.split('\n');
      this.partial = parts.pop() ?? '';
      const lines: unknown[] = [];
      let bad = 0;
      for (const [i, raw] of parts.entries()) {
        if (!raw.trim() || (skipFirst && i === 0)) continue;
        const line = parseJsonLine(raw);
        if ('json' in line) lines.push(line.json);
        else bad += 1;
      }
      return { lines, bad, reset, missing: false };
    } finally {
      await handle.close();
    }
  }
}

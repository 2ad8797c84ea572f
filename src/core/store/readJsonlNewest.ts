import { type FileHandle, open } from 'node:fs/promises';
import { type JsonlCheck, type JsonlPolicy, parseJsonlLines } from './jsonlFile';

/** How much of the file's end one read takes (the first read; each further one doubles). */
const FIRST_CHUNK = 64 * 1024;

export interface JsonlNewest<T> {
  values: T[];
  /** Complete lines skipped as damaged (only with `damaged: 'skip'`), counted from the end (1: the newest). */
  damaged: { line: number; problem: string }[];
  /** Complete lines before the ones returned: older records exist (the file was read from its end only). */
  older: boolean;
}

/**
 * The newest `limit` complete lines of a JSONL file, read from its end: the cost follows `limit`, not the file's
 * length. Same rules as `readJsonlFile` for what it reads (a last line without its newline is a write that never
 * completed, dropped; a damaged line follows `policy.damaged`); lines are named by their place from the end
 * (`file: line 3 from the end`), since the ones before are not counted. A missing file is empty.
 */
export async function readJsonlNewest<T>(
  file: string,
  check: JsonlCheck<T>,
  policy: JsonlPolicy,
  limit: number,
): Promise<JsonlNewest<T>> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { values: [], damaged: [], older: false };
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    // Newlines are single bytes that never occur inside a multi-byte UTF-8 character: the bytes split safely on them.
    let start = size;
    let bytes = Buffer.alloc(0);
    let chunk = FIRST_CHUNK;
    // Enough when the bytes hold `limit` whole lines after a newline that ends an older line (or the file's start).
    while (start > 0 && countNewlines(bytes) <= limit) {
      const from = Math.max(0, start - chunk);
      const part = Buffer.alloc(start - from);
      const { bytesRead } = await handle.read(part, 0, part.length, from);
      if (bytesRead !== part.length) throw new Error(`${file} shrank while it was read`);
      bytes = Buffer.concat([part, bytes]);
      start = from;
      chunk *= 2;
    }
    const text = bytes.toString('utf8');
    const lines = text.split('\n');
    // The last entry is the torn tail (or empty when the file ends with a newline); the first is partial unless the
    // read reached the file's start.
    lines.pop();
    const partial = start > 0 ? lines.shift() : undefined;
    const dropped = Math.max(0, lines.length - limit);
    const newest = lines.slice(dropped);
    const place = (i: number) => `${file}: line ${newest.length - i} from the end`;
    const read = parseJsonlLines(newest, check, { place, ...policy });
    return {
      values: read.values,
      damaged: read.damaged.map((d) => ({ line: newest.length - d.line + 1, problem: d.problem })),
      older: dropped > 0 || partial !== undefined,
    };
  } finally {
    await handle.close();
  }
}

function countNewlines(bytes: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) n++;
  return n;
}

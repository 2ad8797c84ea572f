/** Lines longer than this are cut by default: a line never holds more memory than this. */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/**
 * Splits a byte stream into lines, holding at most `maxLineBytes` of one
 * line: the rest of a longer line is dropped up to its newline and the line
 * ends with the marker ` … [line cut: N more bytes not kept]` (the host's
 * cut, src/core/store/lineCut.ts, writes and adds up the same marker). A
 * chunk may end mid-line or mid-character; the rest waits for the next
 * chunk. `end()` returns what was left without a newline: the last line of a
 * stream that was cut mid-way. Each chunk is scanned once.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  push(chunk: Buffer | string): string[] {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      if (!this.size && !this.dropped && nl - start <= this.maxLineBytes)
        lines.push(stripCr(buf.toString('utf8', start, nl)));
      else {
        this.keep(buf.subarray(start, nl));
        lines.push(this.take());
      }
      start = nl + 1;
    }
    if (start < buf.length) this.keep(buf.subarray(start));
    return lines;
  }

  /** The unterminated remainder, if any (the stream ended mid-line). */
  end(): string | undefined {
    if (!this.size && !this.dropped) return undefined;
    const rest = this.take();
    return rest.length ? rest : undefined;
  }

  private keep(part: Buffer): void {
    const room = this.maxLineBytes - this.size;
    if (part.length <= room && !this.dropped) {
      if (part.length) this.parts.push(part);
      this.size += part.length;
      return;
    }
    let cut = this.dropped ? 0 : room;
    // Never half a character: back off to the start of the one the cut falls in.
    while (cut > 0 && (part[cut]! & 0xc0) === 0x80) cut--;
    if (cut) this.parts.push(part.subarray(0, cut));
    this.size += cut;
    this.dropped += part.length - cut;
  }

  private take(): string {
    const line = Buffer.concat(this.parts, this.size).toString('utf8');
    const dropped = this.dropped;
    this.parts = [];
    this.size = 0;
    this.dropped = 0;
    return dropped ? `${line} … [line cut: ${dropped} more bytes not kept]` : stripCr(line);
  }
}

/**
 * The lines of a readable stream, those of each chunk at once, read with the stream's own backpressure and split by a
 * bounded LineSplitter.
 */
export async function* readLines(
  stream: AsyncIterable<Buffer | string>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<string[]> {
  const split = new LineSplitter(maxLineBytes);
  for await (const chunk of stream) {
    const lines = split.push(chunk);
    if (lines.length) yield lines;
  }
  const rest = split.end();
  if (rest !== undefined) yield [rest];
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

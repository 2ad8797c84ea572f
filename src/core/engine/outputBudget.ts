/** One serialized piece of lane output: a JSON line (or a batch of log lines in one JSON line). */
export interface OutputChunk {
  text: string;
  bytes: number;
  /** Lane log lines in it. */
  lines: number;
  /** Other lane events in it. */
  events: number;
}

/**
 * The cap on a run's stored lane output: the first half of `maxBytes` is
 * written as it comes (the head); after that, output is held in memory and
 * only the latest part that still fits the cap is kept (the tail), dropping
 * the oldest. The tail is written, after a marker that counts what was
 * dropped, when a host line comes (so the file stays in time order) or when
 * the log is flushed. What it holds never exceeds `maxBytes`.
 */
export class OutputBudget {
  private written = 0;
  private full = false;
  private readonly tail = new ByteRing();
  private dropped = { lines: 0, events: 0, bytes: 0 };

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** The texts to write now: the chunk while the head has room, else nothing (held for the tail). */
  output(chunk: OutputChunk): (string | Buffer)[] {
    if (!this.full && this.written + chunk.bytes <= this.maxBytes / 2) {
      this.written += chunk.bytes;
      return [chunk.text];
    }
    const out: string[] = [];
    if (!this.full) {
      this.full = true;
      out.push(this.line({ type: 'decision', message: `lane output passed ${formatBytes(this.maxBytes / 2)}, the head of the run's stored output (runOutput.maxBytes ${formatBytes(this.maxBytes)}); from here only the last part that fits is kept, written when the lane output is next interrupted by a decision or the run ends` }));
    }
    for (const old of this.tail.push(chunk, Math.max(0, this.maxBytes - this.written))) {
      this.dropped.lines += old.lines;
      this.dropped.events += old.events;
      this.dropped.bytes += old.bytes;
    }
    return out;
  }

  /** A host line (a decision): the held tail goes first. */
  host(text: string): (string | Buffer)[] {
    return [...this.drain(), text];
  }

  /** The held tail, after the marker counting what was dropped since the last one. */
  drain(): (string | Buffer)[] {
    const out: (string | Buffer)[] = [];
    if (this.dropped.lines || this.dropped.events) {
      const { lines, events, bytes } = this.dropped;
      const what = [lines ? `${lines} line(s)` : '', events ? `${events} event(s)` : ''].filter(Boolean).join(' and ');
      out.push(this.line({ type: 'output-dropped', lines, events, bytes, message: `${what} of lane output (${formatBytes(bytes)}) dropped here: a run stores at most ${formatBytes(this.maxBytes)} of lane output (runOutput.maxBytes), its head and its tail` }));
      this.dropped = { lines: 0, events: 0, bytes: 0 };
    }
    const held = this.tail.take();
    this.written += held.length;
    if (held.length) out.push(held);
    return out;
  }

  private line(body: Record<string, unknown>): string {
    return `${JSON.stringify({ ts: this.now(), ...body })}\n`;
  }
}

interface HeldChunk {
  bytes: number;
  lines: number;
  events: number;
}

/**
 * The tail's bytes in one circular buffer, allocated once: output passing
 * through it becomes garbage at once instead of living long enough to fill
 * the old generation of the heap.
 */
class ByteRing {
  private buf: Buffer | undefined;
  private start = 0;
  private used = 0;
  private chunks: HeldChunk[] = [];
  private first = 0;

  /** Adds the chunk, dropping the oldest ones so that at most `limit` bytes are held; returns what was dropped. */
  push(chunk: OutputChunk, limit: number): HeldChunk[] {
    this.buf ??= Buffer.allocUnsafe(Math.max(1, limit));
    const cap = Math.min(limit, this.buf.length);
    const dropped: HeldChunk[] = [];
    const held = { bytes: chunk.bytes, lines: chunk.lines, events: chunk.events };
    if (chunk.bytes > cap) return [held];
    while (this.used + chunk.bytes > cap) {
      const oldest = this.chunks[this.first]!;
      this.chunks[this.first++] = undefined as unknown as HeldChunk;
      this.start = (this.start + oldest.bytes) % this.buf.length;
      this.used -= oldest.bytes;
      dropped.push(oldest);
    }
    const at = (this.start + this.used) % this.buf.length;
    const direct = this.buf.length - at;
    if (chunk.bytes <= direct) this.buf.write(chunk.text, at, 'utf8');
    else {
      const bytes = Buffer.from(chunk.text, 'utf8');
      bytes.copy(this.buf, at, 0, direct);
      bytes.copy(this.buf, 0, direct);
    }
    this.used += chunk.bytes;
    this.chunks.push(held);
    if (this.first > 1_024 && this.first * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.first);
      this.first = 0;
    }
    return dropped;
  }

  /** The held bytes, oldest first; the ring is empty afterwards. */
  take(): Buffer {
    const buf = this.buf;
    if (!buf || !this.used) return Buffer.alloc(0);
    const end = this.start + this.used;
    const out = end <= buf.length ? Buffer.from(buf.subarray(this.start, end)) : Buffer.concat([buf.subarray(this.start), buf.subarray(0, end - buf.length)]);
    this.start = 0;
    this.used = 0;
    this.chunks = [];
    this.first = 0;
    return out;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

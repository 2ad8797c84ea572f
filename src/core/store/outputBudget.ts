/** One serialized piece of lane output: a JSON line (or a batch of log lines in one JSON line). */
export interface OutputChunk {
  text: string;
  bytes: number;
  /** Lane log lines in it. */
  lines: number;
  /** Other lane events in it. */
  events: number;
  /** Its `ts` and `seq` (the order in the log, see RunEventLog). */
  ts: string;
  seq: number;
}

/** A line the budget writes itself (a notice, a marker): what `serialize` turns into a JSON line. */
export type BudgetLine = (body: Record<string, unknown>, at?: { ts: string; seq: number }) => string;

/**
 * The cap on a run's stored lane output: the first half of `maxBytes` is
 * written as it comes (the head); after that, output is held in memory and
 * only the latest part that fits the rest of the cap is kept (the tail),
 * dropping the oldest. `drain()` (when the log is flushed at the end of the
 * run) gives the tail, after a marker that counts what was dropped; both
 * carry the time and sequence number of the first kept tail chunk, so a
 * reader puts them back in order. What it holds never exceeds `maxBytes`.
 */
export class OutputBudget {
  private written = 0;
  private full = false;
  private readonly tail = new ByteRing();
  private dropped = { lines: 0, events: 0, bytes: 0 };

  constructor(
    private readonly maxBytes: number,
    private readonly line: BudgetLine,
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
      out.push(
        this.line({
          type: 'decision',
          message: `lane output passed ${formatBytes(this.maxBytes / 2)}, the head of the run's stored output (runOutput.maxBytes ${formatBytes(this.maxBytes)}); from here only the last part that fits is kept, written when the run ends`,
        }),
      );
    }
    for (const old of this.tail.push(chunk, Math.max(0, this.maxBytes - this.written))) {
      this.dropped.lines += old.lines;
      this.dropped.events += old.events;
      this.dropped.bytes += old.bytes;
    }
    return out;
  }

  /** The held tail, after the marker counting what was dropped since the last drain. */
  drain(): (string | Buffer)[] {
    const out: (string | Buffer)[] = [];
    const first = this.tail.first();
    if (this.dropped.lines || this.dropped.events) {
      const { lines, events, bytes } = this.dropped;
      const what = [lines ? `${lines} line(s)` : '', events ? `${events} event(s)` : ''].filter(Boolean).join(' and ');
      const message = `${what} of lane output (${formatBytes(bytes)}) dropped here: a run stores at most ${formatBytes(this.maxBytes)} of lane output (runOutput.maxBytes), its head and its tail`;
      out.push(this.line({ type: 'output-dropped', lines, events, bytes, message }, first));
      this.dropped = { lines: 0, events: 0, bytes: 0 };
    }
    for (const held of this.tail.take()) {
      this.written += held.length;
      out.push(held);
    }
    return out;
  }
}

interface HeldChunk {
  bytes: number;
  lines: number;
  events: number;
  ts: string;
  seq: number;
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
  private oldest = 0;

  /** Adds the chunk, dropping the oldest ones so that at most `limit` bytes are held; returns what was dropped. */
  push(chunk: OutputChunk, limit: number): HeldChunk[] {
    this.buf ??= Buffer.allocUnsafe(Math.max(1, limit));
    const cap = Math.min(limit, this.buf.length);
    const held = { bytes: chunk.bytes, lines: chunk.lines, events: chunk.events, ts: chunk.ts, seq: chunk.seq };
    if (chunk.bytes > cap) return [held];
    const dropped: HeldChunk[] = [];
    while (this.used + chunk.bytes > cap) {
      const old = this.chunks[this.oldest]!;
      this.chunks[this.oldest++] = undefined as unknown as HeldChunk;
      this.start = (this.start + old.bytes) % this.buf.length;
      this.used -= old.bytes;
      dropped.push(old);
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
    if (this.oldest > 1_024 && this.oldest * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.oldest);
      this.oldest = 0;
    }
    return dropped;
  }

  /** Where the oldest held chunk stands in the log, if any. */
  first(): { ts: string; seq: number } | undefined {
    const c = this.chunks[this.oldest];
    return c && { ts: c.ts, seq: c.seq };
  }

  /** The held bytes, oldest first (views of the buffer, which the ring gives up: the next chunk gets a new one). */
  take(): Buffer[] {
    const { buf, start, used } = this;
    this.buf = undefined;
    this.start = 0;
    this.used = 0;
    this.chunks = [];
    this.oldest = 0;
    if (!buf || !used) return [];
    const end = start + used;
    return end <= buf.length ? [buf.subarray(start, end)] : [buf.subarray(start), buf.subarray(0, end - buf.length)];
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

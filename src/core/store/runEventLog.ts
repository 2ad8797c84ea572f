import { JsonlAppender } from './jsonlAppender';
import { cutLine, cutLongStrings } from './lineCut';
import { OutputBudget } from './outputBudget';

export interface RunOutputLimits {
  /** Lane output a run stores at most (head and tail), in bytes of events.jsonl. */
  maxBytes: number;
  /** Longer strings in a lane event are cut with a marker. */
  maxLineChars: number;
}

export const DEFAULT_RUN_OUTPUT: RunOutputLimits = { maxBytes: 10 * 1024 * 1024, maxLineChars: 64 * 1024 };

/** Record types that carry lane output (capped); every other type is a host line (always kept). */
const OUTPUT_TYPES = new Set(['lane', 'review', 'setup']);
/** Consecutive log lines of one stream are stored as one JSON line of at most about this size. */
const BATCH_BYTES = 64 * 1024;

/**
 * Orders the lines of the logs written by this process (a held tail is written after later lines; readers sort by ts,
 * then seq).
 */
let seq = 0;

interface LogBatch {
  ts: string;
  seq: number;
  type: string;
  stream: string;
  parts: string[];
  bytes: number;
}

/**
 * Appends lane events and host decisions of one run, one JSON object a line,
 * each with its time (`ts`) and its place in this process's order (`seq`).
 * Host lines (decisions) are written at once. Lane output is capped
 * (`limits`, see OutputBudget: the head as it comes, the tail when the log is
 * flushed at the end of the run, a marker counting what was dropped, long
 * strings cut); consecutive log lines of one stream are stored as one
 * `{"type":"log","stream":…,"lines":[…]}` event. readRunLog gives them back
 * one a line, in order. Writes are batched, one at a time.
 */
export class RunEventLog {
  private readonly out: JsonlAppender;
  private readonly budget: OutputBudget;
  private batch: LogBatch | undefined;
  private batchTimer: NodeJS.Immediate | undefined;

  constructor(
    readonly file: string,
    private readonly limits: RunOutputLimits = DEFAULT_RUN_OUTPUT,
  ) {
    this.out = new JsonlAppender(file);
    this.budget = new OutputBudget(
      limits.maxBytes,
      (body, at) => `${JSON.stringify({ ts: at?.ts ?? new Date().toISOString(), seq: at?.seq ?? ++seq, ...body })}\n`,
    );
  }

  append(type: string, body: Record<string, unknown>): void {
    if (!OUTPUT_TYPES.has(type)) {
      this.closeBatch();
      this.out.write(`${JSON.stringify({ ts: new Date().toISOString(), seq: ++seq, type, ...body })}\n`);
      return;
    }
    const log = logLine(body);
    if (log) {
      this.addLine(
        type,
        log.stream,
        log.line.length > this.limits.maxLineChars ? cutLine(log.line, this.limits.maxLineChars) : log.line,
      );
      return;
    }
    this.closeBatch();
    const clean = cutLongStrings(body, this.limits.maxLineChars);
    const at = { ts: new Date().toISOString(), seq: ++seq };
    const text = `${JSON.stringify({ ...at, type, ...clean })}\n`;
    this.write(this.budget.output({ text, bytes: Buffer.byteLength(text), lines: 0, events: 1, ...at }));
  }

  /** Writes what is held (the tail, an open batch) and resolves once everything appended so far is in the file. */
  flush(): Promise<void> {
    this.closeBatch();
    this.write(this.budget.drain());
    return this.out.flush();
  }

  private addLine(type: string, stream: string, line: string): void {
    const part = JSON.stringify(line);
    const open = this.batch;
    if (open && (open.type !== type || open.stream !== stream || open.bytes + part.length > BATCH_BYTES))
      this.closeBatch();
    this.batch ??= { ts: new Date().toISOString(), seq: ++seq, type, stream, parts: [], bytes: 0 };
    this.batch.parts.push(part);
    this.batch.bytes += part.length + 1;
    // Closed once the lane's current burst of output is handled, so a quiet lane's lines are not held back.
    this.batchTimer ??= setImmediate(() => {
      this.batchTimer = undefined;
      this.closeBatch();
    });
  }

  private closeBatch(): void {
    if (this.batchTimer) clearImmediate(this.batchTimer);
    this.batchTimer = undefined;
    const b = this.batch;
    if (!b) return;
    this.batch = undefined;
    const event = `{"type":"log","stream":${JSON.stringify(b.stream)},"lines":[${b.parts.join(',')}]}`;
    const text = `{"ts":${JSON.stringify(b.ts)},"seq":${b.seq},"type":${JSON.stringify(b.type)},"event":${event}}\n`;
    this.write(
      this.budget.output({
        text,
        bytes: Buffer.byteLength(text),
        lines: b.parts.length,
        events: 0,
        ts: b.ts,
        seq: b.seq,
      }),
    );
  }

  private write(texts: (string | Buffer)[]): void {
    for (const text of texts) this.out.write(text);
  }
}

/**
 * A lane log event `{event: {type: 'log', stream, line}}` (the lane event schema allows no other field in it), which
 * can be batched.
 */
function logLine(body: Record<string, unknown>): { stream: string; line: string } | undefined {
  const event = body.event as { type?: unknown; stream?: unknown; line?: unknown } | undefined;
  if (event?.type !== 'log' || typeof event.line !== 'string' || typeof event.stream !== 'string') return undefined;
  return event as { stream: string; line: string };
}

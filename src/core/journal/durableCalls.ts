import { createHash } from 'node:crypto';
import { SwitchyardError } from '../errors';
import { sumUsage, type Usage } from '../model/laneEvent';
import type { CallKind, JournalEvent, ReplayRule } from './journalEvent';
import type { JournalSink } from './journalStore';
import type { Durability } from './journalWriter';

export interface CallSpec<T> {
  kind: CallKind;
  name: string;
  /** Recorded in the journal; must be JSON and must hold no secret. */
  input: unknown;
  /** `safe`: may run again after an interruption. `never`: an interrupted call is reported uncertain, never re-run. */
  replay: ReplayRule;
  /** Tokens and cost of a result, recorded once and never counted again on resume. */
  usage?(output: T): Usage | undefined;
}

export type CallResult<T> =
  | { status: 'ok'; value: T; replayed: boolean; idempotencyKey: string }
  | { status: 'uncertain'; message: string; idempotencyKey: string };

export interface ResumeCounts {
  /** Completed calls whose results were read back instead of executed. */
  replayed: number;
  /** Interrupted model calls sent again. */
  resent: number;
  /** Interrupted `safe` tool calls run again. */
  rerun: number;
  /** Interrupted `never` tool calls reported as uncertain. */
  uncertain: number;
}

/** A call that failed the first time fails the same way when replayed. */
export class CallFailedError extends Error {
  override readonly name = 'CallFailedError';
}

type Intent = Extract<JournalEvent, { type: 'intent' }>;
type Outcome = Extract<JournalEvent, { type: 'outcome' }>;

/** The deterministic idempotency key of a run's n-th call, handed to the tool. */
export function idempotencyKey(runId: string, call: number): string {
  return `sy-${createHash('sha256').update(`${runId}:${call}`).digest('hex').slice(0, 24)}`;
}

/**
 * The durable call API: every call is an intent and an outcome in the run's
 * journal. On resume the calls of the earlier process are matched by position:
 * completed ones are read back, interrupted ones follow their replay rule.
 */
export class DurableCalls {
  private position = 0;
  private readonly prior = new Map<number, { intent: Intent; outcome?: Outcome }>();
  readonly counts: ResumeCounts = { replayed: 0, resent: 0, rerun: 0, uncertain: 0 };
  private usage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  private sealed = false;

  constructor(
    private readonly writer: JournalSink,
    private readonly durability: Durability,
    priorEvents: readonly JournalEvent[] = [],
  ) {
    for (const event of priorEvents) {
      if (event.type === 'intent') this.prior.set(event.call, { intent: event });
      else if (event.type === 'outcome') {
        const entry = this.prior.get(event.call);
        if (entry) entry.outcome = event;
        if (event.usage) this.addUsage(event.usage);
      }
    }
  }

  /** Tokens and cost of every call of the run, each counted once, across resumes. */
  totalUsage(): Usage {
    return { ...this.usage };
  }

  /**
   * Stops recording: a call in flight gets no outcome and later calls fail.
   * The journal then reads as if the process had stopped right here, so the
   * process that resumes the run decides (re-send, re-run, or uncertain).
   */
  seal(): void {
    this.sealed = true;
  }

  async call<T>(spec: CallSpec<T>, fn: (ctx: { idempotencyKey: string }) => Promise<T>): Promise<CallResult<T>> {
    if (this.sealed) throw new CallFailedError(HANDED_BACK);
    const call = ++this.position;
    const key = idempotencyKey(this.writer.runId, call);
    const earlier = this.prior.get(call);
    if (earlier) {
      if (earlier.intent.kind !== spec.kind || earlier.intent.name !== spec.name) {
        throw new SwitchyardError(
          'journal-diverged',
          `${this.writer.where}: call ${call} was ${earlier.intent.kind} "${earlier.intent.name}" in the journal but is ${spec.kind} "${spec.name}" now; the lane is not deterministic and cannot resume`,
        );
      }
      if (earlier.outcome) return this.readBack<T>(earlier.outcome, key);
      if (earlier.intent.kind === 'tool' && earlier.intent.replay === 'never')
        return this.markUncertain(earlier.intent, key);
      if (earlier.intent.kind === 'model') this.counts.resent += 1;
      else this.counts.rerun += 1;
      return this.execute(spec, fn, earlier.intent.seq, call, key);
    }
    const mustWait = this.durability === 'strict' || spec.replay === 'never';
    const { event, durable } = this.writer.append(
      { type: 'intent', call, kind: spec.kind, name: spec.name, input: spec.input, replay: spec.replay, key },
      mustWait,
    );
    await durable;
    return this.execute(spec, fn, event.seq, call, key);
  }

  private async execute<T>(
    spec: CallSpec<T>,
    fn: (ctx: { idempotencyKey: string }) => Promise<T>,
    intent: number,
    call: number,
    key: string,
  ): Promise<CallResult<T>> {
    const strict = this.durability === 'strict';
    let value: T;
    try {
      value = await fn({ idempotencyKey: key });
    } catch (error) {
      if (this.sealed) throw new CallFailedError(HANDED_BACK, { cause: error });
      const message = error instanceof Error ? error.message : String(error);
      await this.writer.append({ type: 'outcome', intent, call, ok: false, error: message }, strict).durable;
      throw new CallFailedError(message, { cause: error });
    }
    if (this.sealed) throw new CallFailedError(HANDED_BACK);
    const usage = spec.usage?.(value);
    if (usage) this.addUsage(usage);
    await this.writer.append(
      { type: 'outcome', intent, call, ok: true, output: value, ...(usage ? { usage } : {}) },
      strict,
    ).durable;
    return { status: 'ok', value, replayed: false, idempotencyKey: key };
  }

  private readBack<T>(outcome: Outcome, key: string): CallResult<T> {
    this.counts.replayed += 1;
    if (outcome.uncertain)
      return { status: 'uncertain', message: outcome.error ?? uncertainMessage(key), idempotencyKey: key };
    if (!outcome.ok) throw new CallFailedError(outcome.error ?? 'the call failed');
    return { status: 'ok', value: outcome.output as T, replayed: true, idempotencyKey: key };
  }

  private async markUncertain<T>(intent: Intent, key: string): Promise<CallResult<T>> {
    this.counts.uncertain += 1;
    const message = uncertainMessage(key, intent.name);
    await this.writer.append(
      { type: 'outcome', intent: intent.seq, call: intent.call, ok: false, uncertain: true, error: message },
      true,
    ).durable;
    return { status: 'uncertain', message, idempotencyKey: key };
  }

  private addUsage(u: Usage): void {
    this.usage = sumUsage(this.usage, u);
  }
}

const HANDED_BACK = "the run was handed back to the queue: this call's outcome is left to the process that resumes it";

function uncertainMessage(key: string, name?: string): string {
  return `uncertain: this call${name ? ` (${name})` : ''} may have executed before the run was interrupted; verify with idempotency key ${key} before doing it again`;
}

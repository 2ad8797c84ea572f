import { errorMessage } from '../errors';
import { appendGuardEvent, type GuardEvent, type GuardEvidence } from './guardLog';

/** What a guard's check decides. Anything it throws becomes a `guard.error` instead. */
export interface GuardOutcome {
  verdict: 'pass' | 'block' | 'warn';
  rule: string;
  evidence: GuardEvidence[];
}

export interface GuardContext {
  /** The repository whose `.switchyard/guards.jsonl` records the verdict; none: not recorded. */
  root?: string;
  subject?: string;
  runId?: string;
}

/** The recorded event, and the write error if recording failed (the verdict still stands). */
export type GuardResult = GuardEvent & { recordError?: string };

/**
 * Runs one guard check fail-safe: times it, records its verdict, and turns
 * any exception (a missing tool, unexpected output, a bug) into a
 * `guard.error` event. Never throws, so a broken guard cannot wedge a push
 * or a run; callers treat `error` like `pass` and report it.
 */
export async function runGuard(
  guard: string,
  ctx: GuardContext,
  check: () => Promise<GuardOutcome>,
): Promise<GuardResult> {
  const started = performance.now();
  let event: GuardEvent;
  const base = {
    v: 1 as const,
    guard,
    ...(ctx.subject ? { subject: ctx.subject } : {}),
    ...(ctx.runId ? { runId: ctx.runId } : {}),
  };
  try {
    const outcome = await check();
    event = {
      ...base,
      type: 'guard.verdict',
      ts: new Date().toISOString(),
      verdict: outcome.verdict,
      rule: outcome.rule,
      evidence: outcome.evidence,
      durationMs: elapsed(started),
    };
  } catch (error) {
    event = {
      ...base,
      type: 'guard.error',
      ts: new Date().toISOString(),
      verdict: 'error',
      rule: 'internal-error',
      evidence: [],
      error: oneLine(errorMessage(error)),
      durationMs: elapsed(started),
    };
  }
  if (!ctx.root) return event;
  try {
    await appendGuardEvent(ctx.root, event);
    return event;
  } catch (error) {
    return { ...event, recordError: oneLine(errorMessage(error)) };
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 497)}...` : line || 'unknown error';
}

/** One line for a human: `conflict-markers block (conflict-marker) 12 ms: src/a.ts:3: …`. */
export function formatGuardEvent(event: GuardEvent): string {
  const head = `${event.guard} ${event.verdict} (${event.rule}) ${event.durationMs} ms`;
  if (event.verdict === 'error') return `${head}: ${event.error}`;
  const first = event.evidence[0];
  if (!first) return head;
  const more = event.evidence.length > 1 ? ` (+${event.evidence.length - 1} more)` : '';
  return `${head}: ${formatEvidence(first)}${more}`;
}

export function formatEvidence(e: GuardEvidence): string {
  return `${e.file ? `${e.file}${e.line ? `:${e.line}` : ''}: ` : ''}${e.message}`;
}

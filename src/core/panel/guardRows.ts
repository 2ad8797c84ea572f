import type { GuardEvent } from '../guards/guardLog';
import type { GuardRow } from './panelProtocol';

/**
 * A guard verdict as the panel shows it: guard, verdict, the rule that
 * matched (the classification), how long it took, and its evidence, each
 * with `file:line` when it has one (conflict markers, secrets). A merge
 * source's evidence names the merge, the refused parent and the branch it
 * came from in its message.
 */
export function guardRow(event: GuardEvent): GuardRow {
  return {
    ts: event.ts,
    guard: event.guard,
    verdict: event.verdict,
    rule: event.rule,
    durationMs: event.durationMs,
    ...(event.subject ? { subject: event.subject } : {}),
    ...(event.runId ? { runId: event.runId } : {}),
    evidence: event.evidence.map((e) => ({
      ...(e.file ? { where: e.line ? `${e.file}:${e.line}` : e.file } : {}),
      message: e.message,
    })),
    ...(event.verdict === 'error' ? { error: event.error } : {}),
  };
}

/** The newest `limit` verdicts, newest first. */
export function recentGuardRows(events: readonly GuardEvent[], limit: number): GuardRow[] {
  const out: GuardRow[] = [];
  for (let i = events.length - 1; i >= 0 && out.length < limit; i--) out.push(guardRow(events[i]!));
  return out;
}

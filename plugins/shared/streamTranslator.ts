import type { LaneEvent } from '../../src/api';

/** What a translator learned from a CLI's stream about how the run went. */
export interface StreamOutcome {
  /** The CLI's session (thread, chat) id, for resuming it later. */
  sessionId?: string;
  /** The CLI reported the end of its work (a result event, a completed turn). */
  finished: boolean;
  /** …and reported it as a success. */
  succeeded: boolean;
  /** The CLI's final answer, used as the run's summary. */
  resultText?: string;
  /** The CLI's own error (error result, failed turn, error event), with its full text. */
  error?: string;
  /**
   * Why a work run failed although the CLI calls its end a success (every edit and command denied), with the reason in
   * `error`: `permission-denied` for the lane's permission settings, `lane-exit` for edits refused because they named
   * files outside the worktree (no setting fixes that; a retry in a new session may).
   */
  failureCode?: 'permission-denied' | 'lane-exit';
  /** What went wrong without failing the run (some tool calls denied), added to the run's summary. */
  warnings?: string[];
  /** Normalized events that carried work (text, tool calls); a session that did any work is not retried fresh. */
  workEvents: number;
}

/**
 * Turns one CLI's stream events (already parsed by its zod schema) into
 * Switchyard's normalized lane events. One instance per CLI process.
 */
export interface StreamTranslator<E> {
  translate(event: E): LaneEvent[];
  readonly outcome: StreamOutcome;
}

export function newOutcome(): StreamOutcome {
  return { finished: false, succeeded: false, workEvents: 0 };
}

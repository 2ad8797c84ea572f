import { z } from 'zod';
import { SwitchyardError } from '../errors';

export const RUN_STATES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'STALE_RESULT'] as const;
export const RunState = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunState>;

/**
 * The state a run is shown in: a RUNNING run whose pull request is open no longer works, it waits for the checks its
 * base requires (its task is AWAITING_CI), and says AWAITING_CI.
 */
export function shownRunState(run: {
  state: RunState;
  pullRequest?: { state: 'open' | 'merged' | 'closed' } | undefined;
}): RunState | 'AWAITING_CI' {
  return run.state === 'RUNNING' && run.pullRequest?.state === 'open' ? 'AWAITING_CI' : run.state;
}

const RUN_TRANSITIONS: Record<RunState, readonly RunState[]> = {
  RUNNING: ['SUCCEEDED', 'FAILED', 'CANCELED', 'STALE_RESULT'],
  SUCCEEDED: ['STALE_RESULT'],
  FAILED: [],
  CANCELED: ['STALE_RESULT'],
  STALE_RESULT: [],
};

export function canTransitionRun(from: RunState, to: RunState): boolean {
  return RUN_TRANSITIONS[from].includes(to);
}

export function assertRunTransition(from: RunState, to: RunState, runId: string): void {
  if (!canTransitionRun(from, to)) {
    const allowed = RUN_TRANSITIONS[from];
    throw new SwitchyardError(
      'illegal-transition',
      `run ${runId}: illegal transition ${from} → ${to} (from ${from} only ${allowed.length ? allowed.join(', ') : 'nothing'} is allowed)`,
    );
  }
}

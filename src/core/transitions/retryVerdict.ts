import type { ErrorRule } from '../retry/classifyError';
import { RetryPolicy, decideRetry } from '../retry/retryPolicy';
import { classify } from '../retry/classifyError';
import { FAILURE_CODES, isRetryable, type FailureCode } from '../model/failureCodes';
import type { ProjectSettings, ProjectState } from '../store/projectState';
import type { LaneRegistry } from '../lanes/laneRegistry';

/** Failures of the work itself that a new attempt can fix when it is told what went wrong (its input changes). */
const FIX_CODES: ReadonlySet<FailureCode> = new Set([
  'verify-failed',
  'changes-requested',
  'guard-blocked',
  'merge-conflict',
  'ci-failed',
]);

export interface RetryVerdictInput {
  code: FailureCode;
  reason: string;
  /** Attempts made on this lane so far, the failed one included. */
  attempt: number;
  cap: number;
  lane: string;
  backoff: ProjectSettings['retryBackoff'];
  rules?: readonly ErrorRule[];
  random?: () => number;
}

export interface RetryVerdict {
  retry: boolean;
  /** Wait before the next attempt (transient errors back off; fix attempts start at once). */
  delayMs: number;
  /** One line: the policy's reason. */
  why: string;
  /** No retry only because the lane's attempt budget is spent (a fallback lane may take over). */
  exhausted: boolean;
  /** The error was classified permanent: retrying the same input cannot help. */
  permanent: boolean;
}

/**
 * Whether a failed run's task gets another attempt, using the guards' retry
 * policy: errors around the work are classified (transient ones retried
 * with backoff, permanent ones not); failures of the work itself
 * (verification, review, conflicts) are retried only as fix attempts with
 * the failure as feedback; policy violations never.
 */
export function retryVerdict(input: RetryVerdictInput): RetryVerdict {
  if (!isRetryable(input.code)) {
    return {
      retry: false,
      delayMs: 0,
      why: `not retried: ${FAILURE_CODES[input.code].summary}`,
      exhausted: false,
      permanent: true,
    };
  }
  const policy = RetryPolicy.parse({
    maximumAttempts: input.cap,
    initialIntervalMs: Math.max(1, input.backoff.initialMs),
    backoffCoefficient: input.backoff.coefficient,
    maximumIntervalMs: Math.max(1, input.backoff.maxMs, input.backoff.initialMs),
  });
  const fix = FIX_CODES.has(input.code);
  const decision = decideRetry(
    policy,
    {
      attempt: input.attempt,
      lane: input.lane,
      kind: fix ? 'product-defect' : 'error',
      error: input.reason,
      inputChanged: fix,
    },
    { random: input.random, classifyWith: (error) => classify(error, input.rules) },
  );
  const permanent = !fix && decision.class !== undefined && policy.nonRetryableClasses.includes(decision.class);
  const exhausted = !decision.retry && !permanent && input.attempt >= input.cap;
  const delayMs = fix || input.backoff.initialMs === 0 ? 0 : decision.delayMs;
  return { retry: decision.retry, delayMs, why: decision.reason, exhausted, permanent };
}

/** How many attempts a task on `lane` gets: the project's cap for the lane, else the lane's default, else 1. */
export function retryCap(state: ProjectState, registry: LaneRegistry, lane: string): number {
  return state.settings.retryCaps[lane] ?? registry.get(lane)?.manifest.defaultRetryCap ?? 1;
}

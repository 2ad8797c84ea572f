import { z } from 'zod';
import { errorMessage } from '../errors';
import { classify, type Classification, type ErrorClass } from './classifyError';

/**
 * A Temporal-style retry policy. Delay before retry n (n = 1 after the first
 * failure) is `initialInterval × backoffCoefficient^(n-1)`, capped at
 * `maximumInterval`, spread by ±`jitter`, and never shorter than what the
 * server asked for (Retry-After). `maximumAttempts` counts every attempt,
 * the first included; 0 means unlimited.
 */
export const RetryPolicy = z
  .object({
    initialIntervalMs: z.number().int().positive().default(1_000),
    backoffCoefficient: z.number().min(1).default(2),
    /** Default: 100 × the initial interval (Temporal's default). */
    maximumIntervalMs: z.number().int().positive().optional(),
    jitter: z.number().min(0).max(1).default(0.2),
    maximumAttempts: z.number().int().min(0).default(3),
    /** Per-lane overrides of `maximumAttempts`. */
    laneMaximumAttempts: z.record(z.string(), z.number().int().min(0)).default({}),
    nonRetryableClasses: z.array(z.enum(['transient', 'ci-pending', 'permanent'])).default(['permanent']),
    /** A server asking for a longer wait than this is not waited for: the failure is escalated instead. */
    maximumRetryAfterMs: z
      .number()
      .int()
      .positive()
      .default(15 * 60_000),
  })
  .strict();
export type RetryPolicy = z.infer<typeof RetryPolicy>;
export type RetryPolicyInput = z.input<typeof RetryPolicy>;

/**
 * Why an attempt failed. `error`: something went wrong around the work
 * (network, API, CI, auth) and is classified. The other kinds are about the
 * work itself and are never retried with the same input.
 */
export type FailureKind = 'error' | 'product-defect' | 'policy-violation' | 'spec-gap';

export interface RetryInput {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  lane?: string;
  kind: FailureKind;
  error?: unknown;
  /** Reuse a classification made earlier (otherwise `error` is classified with `classifyWith`). */
  classification?: Classification;
  /** Whether the next attempt gets a different input (e.g. the failing check's output, a revised spec). */
  inputChanged?: boolean;
}

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  /** One line for the run log: why retry or why not. */
  reason: string;
  class?: ErrorClass;
  rule?: string;
  maxAttempts: number;
}

export interface DecideOptions {
  random?: () => number;
  classifyWith?: (error: unknown) => Classification;
}

export function maxAttemptsFor(policy: RetryPolicy, lane?: string): number {
  return (lane !== undefined ? policy.laneMaximumAttempts[lane] : undefined) ?? policy.maximumAttempts;
}

/** The backoff before retry number `retry` (1-based), jitter included. */
export function backoffDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const max = policy.maximumIntervalMs ?? policy.initialIntervalMs * 100;
  const base = Math.min(max, policy.initialIntervalMs * policy.backoffCoefficient ** Math.max(0, retry - 1));
  const spread = 1 - policy.jitter + 2 * policy.jitter * random();
  return Math.round(Math.min(max, base * spread));
}

/** Decides whether to try again after a failed attempt, and after how long. */
export function decideRetry(policy: RetryPolicy, input: RetryInput, options: DecideOptions = {}): RetryDecision {
  const maxAttempts = maxAttemptsFor(policy, input.lane);
  const left = maxAttempts === 0 ? Infinity : maxAttempts - input.attempt;
  const no = (reason: string, extra: Partial<RetryDecision> = {}): RetryDecision => ({
    retry: false,
    delayMs: 0,
    reason,
    maxAttempts,
    ...extra,
  });

  if (input.kind !== 'error') {
    const what = input.kind.replace('-', ' ');
    if (!input.inputChanged) return no(`not retried: a ${what} is never retried with the same input`);
    if (left <= 0) return no(`exceeded max attempts (${maxAttempts}) after a ${what}`);
    return {
      retry: true,
      delayMs: 0,
      reason: `new attempt with a changed input after a ${what} (attempt ${input.attempt + 1} of ${fmtMax(maxAttempts)})`,
      maxAttempts,
    };
  }

  const c = input.classification ?? (options.classifyWith ?? classify)(input.error);
  const tag = { class: c.class, rule: c.rule };
  if (policy.nonRetryableClasses.includes(c.class))
    return no(`not retried: ${c.class} (${c.rule}: ${c.description})`, tag);
  if (left <= 0) return no(`exceeded max attempts (${maxAttempts}): last error was ${c.class} (${c.rule})`, tag);
  if (c.retryAfterMs !== undefined && c.retryAfterMs > policy.maximumRetryAfterMs) {
    return no(
      `not retried: the server asked to wait ${Math.round(c.retryAfterMs / 1000)} s, more than the policy's ${Math.round(policy.maximumRetryAfterMs / 1000)} s`,
      tag,
    );
  }
  const backoff = backoffDelayMs(policy, input.attempt, options.random);
  const delayMs = Math.max(backoff, c.retryAfterMs ?? 0);
  const why =
    c.retryAfterMs !== undefined && c.retryAfterMs >= backoff ? 'as the server asked (Retry-After)' : 'backoff';
  return {
    retry: true,
    delayMs,
    reason: `retrying in ${delayMs} ms (${why}): ${c.class} (${c.rule}), attempt ${input.attempt + 1} of ${fmtMax(maxAttempts)}`,
    maxAttempts,
    ...tag,
  };
}

function fmtMax(max: number): string {
  return max === 0 ? 'unlimited' : String(max);
}

/** Thrown by `withRetry` when it stops: carries the decision and the last error as `cause`. */
export class RetryGaveUpError extends Error {
  override readonly name = 'RetryGaveUpError';
  readonly code = 'retry-exhausted';
  constructor(
    readonly decision: RetryDecision,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`gave up after ${attempts} attempt(s): ${decision.reason}; last error: ${errorMessage(cause)}`, { cause });
  }
}

export interface WithRetryOptions extends DecideOptions {
  policy: RetryPolicy;
  lane?: string;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onRetry?(decision: RetryDecision, error: unknown): void;
}

/** Calls `fn` until it succeeds or the policy says stop (then throws RetryGaveUpError). */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: WithRetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const decision = decideRetry(options.policy, { attempt, lane: options.lane, kind: 'error', error }, options);
      if (!decision.retry) throw new RetryGaveUpError(decision, attempt, error);
      options.onRetry?.(decision, error);
      await sleep(decision.delayMs, options.signal);
    }
  }
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

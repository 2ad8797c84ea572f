import type { Octokit } from '@octokit/rest';
import { errorMessage } from '../errors';
import type { Classification, ErrorClass } from '../retry/classifyError';
import { MergeResult, parseGitHub } from './githubSchemas';
import {
  RetryGaveUpError,
  RetryPolicy,
  withRetry,
  type RetryDecision,
  type RetryPolicyInput,
} from '../retry/retryPolicy';

export interface MergeOptions {
  octokit: Octokit;
  owner: string;
  repo: string;
  pullNumber: number;
  /** Merge only if the head is still this commit (what the gate checked). */
  sha?: string;
  mergeMethod?: 'merge' | 'squash' | 'rebase';
  /** Default: 5 s doubling to 2 min, 10 attempts; permanent answers are not retried. */
  policy?: RetryPolicyInput;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  signal?: AbortSignal;
  classifyWith?: (error: unknown) => Classification;
  onRetry?(decision: RetryDecision, error: unknown): void;
}

export type MergeOutcome =
  | { merged: true; sha: string; attempts: number }
  | { merged: false; attempts: number; class?: ErrorClass; rule?: string; reason: string };

export const DEFAULT_MERGE_RETRY: RetryPolicyInput = {
  initialIntervalMs: 5_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 120_000,
  maximumAttempts: 10,
};

/**
 * Merges a pull request (`PUT /repos/{owner}/{repo}/pulls/{n}/merge`),
 * retrying with backoff while GitHub answers that required checks are still
 * expected ("Required status check "X" is expected.", "N of M required
 * status checks are expected.") or fails transiently. A permanent answer (a
 * failing required check, a missing signature, no permission) stops at once.
 */
export async function mergePullRequest(options: MergeOptions): Promise<MergeOutcome> {
  const policy = RetryPolicy.parse({ ...DEFAULT_MERGE_RETRY, ...options.policy });
  let attempts = 0;
  try {
    const sha = await withRetry(
      async (attempt) => {
        attempts = attempt;
        const res = await options.octokit.rest.pulls.merge({
          owner: options.owner,
          repo: options.repo,
          pull_number: options.pullNumber,
          ...(options.sha ? { sha: options.sha } : {}),
          ...(options.mergeMethod ? { merge_method: options.mergeMethod } : {}),
        });
        const data = parseGitHub(
          MergeResult,
          res.data,
          `PUT /repos/${options.owner}/${options.repo}/pulls/${options.pullNumber}/merge`,
        );
        if (!data.merged || !data.sha)
          throw new Error(`GitHub did not merge the pull request: ${data.message ?? 'no reason given'}`);
        return data.sha;
      },
      {
        policy,
        sleep: options.sleep,
        random: options.random,
        signal: options.signal,
        classifyWith: options.classifyWith,
        onRetry: options.onRetry,
      },
    );
    return { merged: true, sha, attempts };
  } catch (error) {
    if (error instanceof RetryGaveUpError) {
      return {
        merged: false,
        attempts,
        class: error.decision.class,
        rule: error.decision.rule,
        reason: `${error.decision.reason}; GitHub said: ${errorMessage(error.cause)}`,
      };
    }
    throw error;
  }
}

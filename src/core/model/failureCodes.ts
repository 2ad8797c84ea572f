import { z } from 'zod';

/** Why a run failed. `retryable` says whether the same input may be tried again. */
export const FAILURE_CODES = {
  'lane-exit': { retryable: true, summary: 'the lane reported failure or its process exited non-zero' },
  'lane-timeout': { retryable: true, summary: 'the lane did not finish within its timeout and was aborted' },
  'lane-crash': { retryable: true, summary: 'the lane threw an unexpected error' },
  'lane-malformed-event': {
    retryable: false,
    summary: 'the lane emitted an event that does not match the event schema',
  },
  'lane-not-registered': { retryable: false, summary: 'no lane with this id is registered' },
  'lane-misconfigured': { retryable: false, summary: 'the lane settings are missing or invalid' },
  'workspace-error': { retryable: true, summary: 'creating the worktree or capturing the diff failed' },
  'verify-failed': { retryable: true, summary: 'the acceptance command failed' },
  canceled: { retryable: false, summary: 'the task was canceled' },
  'secret-missing': { retryable: false, summary: 'a secret the lane needs is not set' },
  'secret-unavailable': { retryable: false, summary: 'resolving a secret the lane needs failed' },
  'journal-corrupt': { retryable: false, summary: "the run's journal is damaged, so it cannot be resumed safely" },
  'journal-missing': {
    retryable: false,
    summary: "the run's journal is missing or cannot be read, so resuming it would repeat calls it may have made",
  },
  'lease-lost': { retryable: false, summary: 'another process took the run over' },
  interrupted: { retryable: true, summary: 'the process that owned the run stopped before the run finished' },
  'budget-exceeded': {
    retryable: false,
    summary: "the run hit a budget: its tool calls, its tokens or the task's cost cap",
  },
  'provider-rejected': {
    retryable: false,
    summary:
      'the model provider refused the request for a reason a retry does not fix (authentication, quota, a bad request)',
  },
  'permission-denied': {
    retryable: false,
    summary: 'the agent was denied every edit or command it asked for (its permission settings), so it changed nothing',
  },
  // The orchestrator's stages (verification, review, integration). Retried as fix attempts that get feedback, not with
  // the same input.
  'changes-requested': { retryable: true, summary: 'the independent review requested changes' },
  'review-failed': { retryable: true, summary: 'the review run failed without a verdict' },
  'guard-blocked': { retryable: true, summary: 'a guard blocked the change before integration (conflict markers)' },
  'policy-violation': {
    retryable: false,
    summary: 'the change violates a policy a retry cannot fix (a secret in the diff)',
  },
  'merge-conflict': { retryable: true, summary: 'the change conflicts with the target branch' },
  'integration-refused': {
    retryable: false,
    summary: 'the target branch cannot be integrated into (checked out in a worktree, or misconfigured)',
  },
  'integration-error': { retryable: true, summary: 'merging into or pushing the target branch failed' },
  'workspace-setup-failed': {
    retryable: false,
    summary:
      "preparing the run's worktree failed (a worktree.setup command, a worktree.copy file or worktree.link folder)",
  },
  'ci-failed': { retryable: true, summary: "a check the pull request's base requires failed" },
  'ci-timeout': {
    retryable: false,
    summary:
      "the pull request's required checks did not all conclude (or GitHub stayed unreachable) before the deadline",
  },
  'pull-request-closed': { retryable: false, summary: 'the pull request was closed without merging by a person' },
  'github-refused': {
    retryable: false,
    summary: 'GitHub refused the token or the configuration (401/403, no such repository or base branch, scopes)',
  },
} as const satisfies Record<string, { retryable: boolean; summary: string }>;

export type FailureCode = keyof typeof FAILURE_CODES;
export const FailureCode = z.enum(Object.keys(FAILURE_CODES) as [FailureCode, ...FailureCode[]]);

export function isRetryable(code: FailureCode): boolean {
  return FAILURE_CODES[code].retryable;
}

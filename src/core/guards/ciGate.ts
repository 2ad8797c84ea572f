import type { Octokit } from '@octokit/rest';
import { errorMessage } from '../errors';
import { checkState, failureReason, observeChecks, type CheckState } from '../github/ciChecks';
import { classify, type Classification } from '../retry/classifyError';
import { PullRequest, RequiredStatusChecks, parseGitHub } from '../github/githubSchemas';
import { defaultSleep } from '../retry/retryPolicy';
import type { GuardOutcome } from './runGuard';

export interface CiGateOptions {
  octokit: Octokit;
  owner: string;
  repo: string;
  /** The pull request (its head commit and base branch are read from it)… */
  pullNumber?: number;
  /** …or the commit and the branch it aims at. */
  ref?: string;
  baseBranch?: string;
  /**
   * Wait for required checks that have not appeared yet (default true). Off: only the ones that did appear must pass.
   */
  strict?: boolean;
  /** Give up waiting after this long (default 30 minutes). */
  deadlineMs?: number;
  pollIntervalMs?: number;
  /** Without branch protection and with no check reported yet, pass after this long (default 2 minutes). */
  observedGraceMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  classifyWith?: (error: unknown) => Classification;
}

export interface CiGateResult {
  verdict: 'pass' | 'fail' | 'timeout';
  /** What to do next: merge, send the task back for a fix attempt with `reason`, or wait and try later. */
  next: 'merge' | 'fix-attempt' | 'wait';
  headSha: string;
  baseBranch: string;
  /** `branch-protection`: the checks branch protection requires; `observed`: the protection could not be read. */
  source: 'branch-protection' | 'observed';
  required: string[];
  checks: CheckState[];
  warnings: string[];
  /** For `fail`: the failing checks and their output. For `timeout`: what was still pending. */
  reason?: string;
  waitedMs: number;
  polls: number;
}

/**
 * Waits for the checks that branch protection requires for the target
 * branch (`required_status_checks`), not for the checks visible when the
 * pull request opened: a required check that has not registered yet is
 * waited for (strict mode) until the deadline. A 403/404 on the protection
 * endpoint falls back to the checks observed on the commit, with a warning.
 * Transient errors while polling are retried at the next poll.
 */
export async function waitForRequiredChecks(options: CiGateOptions): Promise<CiGateResult> {
  const { octokit, owner, repo } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const classifyWith = options.classifyWith ?? classify;
  const strict = options.strict ?? true;
  const pollMs = options.pollIntervalMs ?? 30_000;
  const started = now();
  const deadline = started + (options.deadlineMs ?? 30 * 60_000);
  const graceMs = options.observedGraceMs ?? 2 * 60_000;

  let headSha = options.ref;
  let baseBranch = options.baseBranch;
  if (options.pullNumber !== undefined) {
    const res = await octokit.rest.pulls.get({ owner, repo, pull_number: options.pullNumber });
    const pr = parseGitHub(PullRequest, res.data, `GET /repos/${owner}/${repo}/pulls/${options.pullNumber}`);
    headSha ??= pr.head.sha;
    baseBranch ??= pr.base.ref;
  }
  if (!headSha || !baseBranch) throw new Error('the CI gate needs a pull request number, or a ref and its base branch');

  const warnings: string[] = [];
  const required = new Map<string, number | null | undefined>();
  let source: CiGateResult['source'] = 'branch-protection';
  try {
    const res = await octokit.rest.repos.getStatusChecksProtection({ owner, repo, branch: baseBranch });
    const data = parseGitHub(
      RequiredStatusChecks,
      res.data,
      `GET /repos/${owner}/${repo}/branches/${baseBranch}/protection/required_status_checks`,
    );
    for (const context of data.contexts) required.set(context, undefined);
    for (const check of data.checks) required.set(check.context, check.app_id);
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status !== 403 && status !== 404) throw error;
    source = 'observed';
    warnings.push(
      `branch protection of ${baseBranch} could not be read (${status}: ${errorMessage(error)}); waiting for the checks observed on ${headSha.slice(0, 12)} instead`,
    );
  }

  const result = (
    verdict: CiGateResult['verdict'],
    checks: CheckState[],
    polls: number,
    reason?: string,
  ): CiGateResult => ({
    verdict,
    next: verdict === 'pass' ? 'merge' : verdict === 'fail' ? 'fix-attempt' : 'wait',
    headSha: headSha!,
    baseBranch: baseBranch!,
    source,
    required: [...required.keys()],
    checks,
    warnings,
    ...(reason ? { reason } : {}),
    waitedMs: now() - started,
    polls,
  });

  let checks: CheckState[] = [];
  for (let polls = 1; ; polls++) {
    try {
      const seen = await observeChecks(octokit, owner, repo, headSha);
      const names = source === 'branch-protection' ? [...required.keys()] : [...seen.keys()];
      checks = names.map((name) => checkState(name, seen, required.get(name)));
      const failing = checks.filter((c) => c.state === 'failure');
      if (failing.length) return result('fail', checks, polls, failureReason(failing));
      const waiting = checks.filter((c) => c.state === 'pending' || (c.state === 'missing' && strict));
      if (source === 'observed' && names.length === 0) {
        if (now() - started >= graceMs) {
          warnings.push(`no checks reported on ${headSha.slice(0, 12)} within ${Math.round(graceMs / 1000)} s`);
          return result('pass', checks, polls);
        }
      } else if (!waiting.length) {
        for (const c of checks.filter((x) => x.state === 'missing'))
          warnings.push(`required check "${c.name}" never reported (not waited for: strict mode is off)`);
        return result('pass', checks, polls);
      }
    } catch (error) {
      const c = classifyWith(error);
      if (c.class === 'permanent') throw error;
      warnings.push(`polling checks failed (${c.class}, ${c.rule}): ${errorMessage(error)}; trying again`);
    }
    const left = deadline - now();
    if (left <= 0) {
      const pending = checks
        .filter((c) => c.state !== 'success')
        .map((c) => `"${c.name}" ${c.state === 'missing' ? 'not reported' : (c.detail ?? c.state)}`);
      return result(
        'timeout',
        checks,
        polls,
        `still waiting after ${Math.round((now() - started) / 1000)} s for required checks: ${pending.join(', ') || '(none seen)'}`,
      );
    }
    await sleep(Math.min(pollMs, left), options.signal);
  }
}

/**
 * The gate's result as a guard verdict, for `runGuard('ci-gate', ctx, async () => ciGateVerdict(await
 * waitForRequiredChecks(…)))`.
 */
export function ciGateVerdict(result: CiGateResult): GuardOutcome {
  const evidence = [
    ...result.checks
      .filter((c) => c.state !== 'success')
      .map((c) => ({
        message: `required check "${c.name}": ${c.state === 'missing' ? 'not reported' : (c.detail ?? c.state)}`,
      })),
    ...result.warnings.map((message) => ({ message })),
  ];
  if (result.verdict === 'fail')
    return {
      verdict: 'block',
      rule: 'required-check-failed',
      evidence: [
        { message: result.reason ?? 'a required check failed' },
        ...result.warnings.map((message) => ({ message })),
      ],
    };
  if (result.verdict === 'timeout') return { verdict: 'warn', rule: 'required-check-pending', evidence };
  return {
    verdict: result.warnings.length ? 'warn' : 'pass',
    rule: result.source === 'observed' ? 'observed-checks' : 'required-checks',
    evidence,
  };
}

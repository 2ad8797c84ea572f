import { errorMessage } from '../../errors';
import { git } from '../../git/gitExec';
import { checkState, failureReason, observeChecks, type CheckState } from '../../github/ciChecks';
import type { PullRequestDetail } from '../../github/githubSchemas';
import { mergePullRequest } from '../../github/mergePullRequest';
import { getPullRequest } from '../../github/pullRequests';
import { readRequiredChecks, type RequiredChecks } from '../../github/requiredChecks';
import type { FailureCode } from '../../model/failureCodes';
import type { PullRequestRecord } from '../../model/pullRequestRecord';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import { classify } from '../../retry/classifyError';
import type { GitHubAccess } from './githubAccess';
import { findRun } from '../../transitions/finishRun';
import { staleBecause } from '../../transitions/inputHash';
import type { RunContext } from '../runContext';
import { findTask } from '../../transitions/setTaskState';
import { PULL_REQUEST_BASE_REF } from './targetBranch';

export type PullRequestOutcome =
  | { ok: true; commit: string }
  | { ok: false; code: FailureCode; reason: string; feedback?: string }
  | { ok: 'stale' };

export interface AwaitInput {
  task: Task;
  run: Run;
  gh: GitHubAccess;
  number: number;
  base: string;
  remote: string;
  mergeMethod: 'merge' | 'squash' | 'rebase';
  pollMs: number;
  deadline: number;
  signal: AbortSignal;
  record: (message: string) => void;
}

const MAX_FEEDBACK = 6_000;

/**
 * The AWAITING_CI stage: polls the pull request and the checks its base requires (branch protection and rulesets)
 * until every required check has registered and concluded, then merges it (retrying while GitHub says checks are
 * "expected"). Each poll updates the run's pull-request record. A failing check, a conflict with the base, a PR
 * closed or merged by a person each end the wait with what happened. Transient GitHub errors are retried with backoff
 * up to the deadline; a 401/403 ends it at once, naming the token source.
 */
export async function awaitPullRequest(ctx: RunContext, input: AwaitInput): Promise<PullRequestOutcome> {
  const { gh, number, signal, record } = input;
  const at = { octokit: gh.octokit, owner: gh.owner, repo: gh.repo };
  const started = Date.now();
  const graceMs = Math.min(120_000, 4 * input.pollMs);
  let required: RequiredChecks | undefined;
  let lastError: string | undefined;
  let errorsInARow = 0;
  let lastChecks = '';
  let draftNoted = false;
  for (;;) {
    if (signal.aborted) return { ok: false, code: 'canceled', reason: 'stopped while waiting for CI' };
    let checks: CheckState[] = [];
    try {
      const pr = await getPullRequest(at, number);
      if (pr.merged || pr.merged_at) {
        record(`pull request #${number} was merged on GitHub (not by this run)`);
        return await recordMerged(ctx, input, pr.merge_commit_sha ?? pr.head.sha);
      }
      if (pr.state === 'closed') {
        await savePullRequest(ctx, input.run.id, { state: 'closed' });
        return {
          ok: false,
          code: 'pull-request-closed',
          reason: `pull request #${number} (${pr.html_url}) was closed without merging`,
        };
      }
      if (pr.mergeable === false || pr.mergeable_state === 'dirty') return await conflict(ctx, input, pr);
      if (!required) {
        required = await readRequiredChecks(gh.octokit, gh.owner, gh.repo, input.base);
        for (const w of required.warnings) record(`CI gate: ${w}`);
      }
      const seen = await observeChecks(gh.octokit, gh.owner, gh.repo, pr.head.sha);
      const names = required.required.size ? [...required.required.keys()] : [...seen.keys()];
      checks = names.map((name) => checkState(name, seen, required!.required.get(name)));
      errorsInARow = 0;
      const summary = checks.map((c) => `${c.name} ${c.detail ?? c.state}`).join(', ');
      if (summary !== lastChecks) record(`required checks on ${pr.head.sha.slice(0, 12)}: ${summary || '(none yet)'}`);
      lastChecks = summary;
      await savePullRequest(ctx, input.run.id, {
        headSha: pr.head.sha,
        checks: checks.map((c) => ({
          name: c.name,
          state: c.state,
          ...(c.detail ? { conclusion: c.detail } : {}),
          ...(c.url ? { url: c.url } : {}),
        })),
        ...(required.warnings.length ? { warnings: required.warnings } : {}),
      });
      const failing = checks.filter((c) => c.state === 'failure');
      if (failing.length) {
        const reason = failureReason(failing);
        return {
          ok: false,
          code: 'ci-failed',
          reason: `pull request #${number}: ${reason.split('\n')[0]}`,
          feedback: cut(
            `Attempt ${input.run.attempt} opened pull request #${number}, and a check its base requires failed:\n${reason}\nFix the change so the check passes; this attempt's push updates the pull request.`,
          ),
        };
      }
      const ready =
        checks.length > 0
          ? checks.every((c) => c.state === 'success')
          : required.required.size === 0 && Date.now() - started >= graceMs;
      if (ready && pr.draft) {
        // GitHub does not merge a draft: a person marks it ready (or merges it); the gate keeps watching until then.
        if (!draftNoted)
          record(`pull request #${number} is a draft: checks passed, waiting for a person to mark it ready`);
        draftNoted = true;
      } else if (ready) {
        const merged = await mergePullRequest({
          octokit: gh.octokit,
          owner: gh.owner,
          repo: gh.repo,
          pullNumber: number,
          sha: pr.head.sha,
          mergeMethod: input.mergeMethod,
          policy: {
            initialIntervalMs: Math.min(5_000, input.pollMs),
            maximumIntervalMs: Math.max(1, Math.min(120_000, 8 * input.pollMs)),
            maximumAttempts: 10,
          },
          signal,
          onRetry: (d, error) =>
            record(`merge of #${number} refused (${d.rule}): ${errorMessage(error)}; trying again in ${d.delayMs} ms`),
        });
        if (merged.merged) return await recordMerged(ctx, input, merged.sha);
        if (TOKEN_REFUSED.test(merged.reason)) return refused(gh, merged.reason);
        record(`pull request #${number} not merged (${merged.rule ?? merged.class}): ${merged.reason}`);
        if (merged.class === 'permanent' && merged.rule !== 'required-check-failed')
          return {
            ok: false,
            code: 'github-refused',
            reason: `GitHub refused to merge pull request #${number}: ${merged.reason}`,
          };
      }
    } catch (error) {
      if (signal.aborted) return { ok: false, code: 'canceled', reason: 'stopped while waiting for CI' };
      const status = (error as { status?: number }).status;
      const message = errorMessage(error);
      if (status === 401 || (status === 403 && !/rate limit/i.test(message)))
        return refused(gh, `${status} ${message}`);
      const c = classify(error, ctx.errorRules?.());
      if (c.class === 'permanent')
        return {
          ok: false,
          code: 'github-refused',
          reason: `GitHub answered ${status ?? ''} for pull request #${number}: ${message}`,
        };
      errorsInARow += 1;
      lastError = message;
      record(`GitHub could not be reached or failed (${c.rule}): ${message}; trying again`);
    }
    const left = input.deadline - Date.now();
    if (left <= 0) {
      const pending = checks
        .filter((c) => c.state !== 'success')
        .map((c) => `"${c.name}" ${c.state === 'missing' ? 'not reported' : (c.detail ?? c.state)}`);
      return {
        ok: false,
        code: 'ci-timeout',
        reason:
          `pull request #${number}: the CI gate gave up after ${Math.round((Date.now() - started) / 1000)} s (integration.ciTimeoutSeconds): ` +
          (lastError && errorsInARow > 0
            ? `the last error: ${lastError}`
            : `still waiting for ${pending.join(', ') || 'the checks to report'}`),
      };
    }
    const backoff = input.pollMs * 2 ** Math.min(errorsInARow, 4);
    await sleep(Math.min(backoff, left), signal);
  }
}

/** A 401/403: permanent, naming where the token came from. */
export function refused(gh: GitHubAccess, answer: string): PullRequestOutcome {
  return {
    ok: false,
    code: 'github-refused',
    reason: `GitHub refused ${gh.source} for ${gh.owner}/${gh.repo}: ${answer}; check the token and its permissions`,
  };
}

/** GitHub's words for a token it does not accept, or one without the permission. */
const TOKEN_REFUSED = /Bad credentials|Resource not accessible|requires authentication|must have (?:admin|push|write)/i;

async function conflict(ctx: RunContext, input: AwaitInput, pr: PullRequestDetail): Promise<PullRequestOutcome> {
  await fetchBase(ctx, input.gh, input.remote, input.base).catch((error) =>
    input.record(`could not fetch ${input.base} from ${input.remote}: ${errorMessage(error)}`),
  );
  return {
    ok: false,
    code: 'merge-conflict',
    reason: `pull request #${pr.number} conflicts with ${input.base} (GitHub: mergeable_state ${pr.mergeable_state})`,
    feedback: `The pull request of the previous attempt (${input.run.id}, #${pr.number}) conflicts with ${input.base}, which moved on. This attempt starts from ${input.base}'s current head: make the change again on top of it.`,
  };
}

/** Fetches the base into PULL_REQUEST_BASE_REF (and the remote-tracking branch), with a borrowed token. */
export async function fetchBase(ctx: RunContext, gh: GitHubAccess, remote: string, base: string): Promise<string> {
  const env = await gh.gitEnv();
  await git(
    ctx.root,
    ['fetch', '--quiet', '--no-tags', remote, `+refs/heads/${base}:refs/remotes/${remote}/${base}`],
    [0],
    env,
  );
  const head = (await git(ctx.root, ['rev-parse', `refs/remotes/${remote}/${base}^{commit}`])).stdout.trim();
  await git(ctx.root, ['update-ref', PULL_REQUEST_BASE_REF, head]);
  return head;
}

async function recordMerged(ctx: RunContext, input: AwaitInput, sha: string): Promise<PullRequestOutcome> {
  const now = new Date().toISOString();
  const moved = await ctx.store.update((state) => {
    const t = findTask(state, input.task.id);
    const r = findRun(state, input.run.id);
    if (r.pullRequest) Object.assign(r.pullRequest, { state: 'merged', mergeCommit: sha, updatedAt: now });
    if (staleBecause(t, r) || t.state !== 'AWAITING_CI') return 'stale' as const;
    const url = r.pullRequest?.url ?? '';
    t.integration = {
      branch: input.base,
      commit: sha,
      runId: r.id,
      at: now,
      pullRequest: { number: input.number, url },
    };
    r.integration = { branch: input.base, commit: sha };
    return 'ok' as const;
  });
  input.record(`pull request #${input.number} merged into ${input.base} as ${sha.slice(0, 12)}`);
  await fetchBase(ctx, input.gh, input.remote, input.base).catch(() => undefined);
  return moved === 'stale' ? { ok: 'stale' } : { ok: true, commit: sha };
}

/** Merges `patch` into the run's pull-request record (a no-op without one). */
export async function savePullRequest(
  ctx: RunContext,
  runId: string,
  patch: Partial<PullRequestRecord>,
): Promise<void> {
  await ctx.store
    .update((state) => {
      const r = findRun(state, runId);
      if (r.pullRequest) r.pullRequest = { ...r.pullRequest, ...patch, updatedAt: new Date().toISOString() };
    })
    .catch(() => undefined);
}

function cut(text: string): string {
  return text.length > MAX_FEEDBACK ? `${text.slice(0, MAX_FEEDBACK - 1)}…` : text;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

import { errorMessage, isSwitchyardError } from '../../errors';
import { git } from '../../git/gitExec';
import { runPrePushGuard } from '../../guards';
import { Repository, parseGitHub } from '../../github/githubSchemas';
import { createPullRequest, findOpenPullRequest, updatePullRequest } from '../../github/pullRequests';
import type { Usage } from '../../model/laneEvent';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import { classify } from '../../retry/classifyError';
import type { Redactor } from '../../secrets/redactor';
import type { ProjectSettings } from '../../store/projectState';
import { squashRun, taskCommitMessage } from '../../workspace/taskCommit';
import { awaitPullRequest, fetchBase, refused, type PullRequestOutcome } from './awaitPullRequest';
import { findRun } from '../../transitions/finishRun';
import { openGitHub, type GitHubAccess } from './githubAccess';
import { pullRequestBody, pullRequestTitle } from './pullRequestBody';
import type { RunContext } from '../runContext';
import type { RunPlan } from '../runPlan';

export interface PullRequestFlowInput {
  task: Task;
  run: Run;
  /** The run's settings, fixed at its claim. */
  plan: RunPlan;
  head: string;
  signal: AbortSignal;
  record: (message: string) => void;
  redactor: Redactor;
  evidence: readonly string[];
  review?: Run['review'];
  usage?: Usage;
  /** Moves the task from INTEGRATING to AWAITING_CI under that stage's WIP limit (waiting for a slot). */
  enterAwaitingCi(): Promise<'entered' | 'stale' | 'aborted'>;
}

/** The branch on the remote that holds a task's pull request: every attempt of the task pushes to it. */
export function pullRequestBranch(taskId: string): string {
  return `switchyard/pr/${taskId}`;
}

/**
 * Pull-request mode, from INTEGRATING: the repository and base are checked on GitHub first (a missing repository or
 * base, a token GitHub refuses or one without push permission fail before any push, naming the setting); the run's
 * commit goes to the task's pull-request branch through the pre-push guard with a borrowed token; the pull request
 * for that branch is found (after a restart, or for a fix attempt) or opened; then the task moves to AWAITING_CI
 * (its own stage: the INTEGRATING slot is free again) and waits for the required checks and the merge.
 */
export async function integratePullRequest(ctx: RunContext, input: PullRequestFlowInput): Promise<PullRequestOutcome> {
  const { task, run, record, signal } = input;
  const { settings } = input.plan;
  const deadline = Date.now() + settings.integration.ciTimeoutSeconds * 1000;
  const { remote } = settings.integration;
  let gh: GitHubAccess;
  try {
    gh = await openGitHub(ctx, settings, (token) => input.redactor.add('GITHUB_TOKEN', token));
  } catch (error) {
    return { ok: false, code: 'github-refused', reason: errorMessage(error) };
  }
  const repository = `${gh.owner}/${gh.repo}`;
  const branch = pullRequestBranch(task.id);

  const checked = await untilDeadline(gh, deadline, signal, record, () => preflight(gh, settings));
  if ('outcome' in checked) return checked.outcome;
  const base = checked.value;

  // The pull request carries one commit: the task's attempts squashed (whatever the merge method, one commit per task
  // reaches the base).
  const head = await squashRun(ctx.root, run.baseCommit, input.head, taskCommitMessage(task, run.id));
  const pushed = await pushBranch(ctx, gh, input, settings, head, branch);
  if (pushed) return pushed;
  await fetchBase(ctx, gh, remote, base).catch((e) => record(`could not fetch ${base}: ${errorMessage(e)}`));

  const at = { octokit: gh.octokit, owner: gh.owner, repo: gh.repo };
  const diffStat = (await git(ctx.root, ['diff', '--stat', run.baseCommit, head]).catch(() => ({ stdout: '' }))).stdout;
  const redact = (text: string) => input.redactor.redact(text);
  const title = pullRequestTitle(task.spec.title, redact);
  const body = pullRequestBody({
    task,
    run,
    diffStat,
    evidence: input.evidence,
    review: input.review,
    redact,
    ...usage(input),
  });
  const opened = await untilDeadline(gh, deadline, signal, record, async () => {
    const found = await findOpenPullRequest(at, branch);
    if (found) {
      record(`pull request #${found.number} is already open for ${branch}: updated by this push (${found.html_url})`);
      return updatePullRequest(at, found.number, { title, body }).catch(() => found);
    }
    const pr = await createPullRequest(at, { head: branch, base, title, body, draft: settings.integration.draft });
    record(`opened pull request #${pr.number} ${branch} → ${base}: ${pr.html_url}`);
    return pr;
  });
  if ('outcome' in opened) return opened.outcome;
  const pr = opened.value;
  const now = new Date().toISOString();
  await ctx.store.update((state) => {
    findRun(state, run.id).pullRequest = {
      number: pr.number,
      url: pr.html_url,
      repository,
      head: branch,
      base,
      state: 'open',
      headSha: head,
      checks: [],
      openedAt: now,
      updatedAt: now,
    };
  });

  const entered = await input.enterAwaitingCi();
  if (entered === 'stale') return { ok: 'stale' };
  if (entered === 'aborted')
    return { ok: false, code: 'canceled', reason: 'stopped while waiting for an AWAITING_CI slot' };
  return awaitPullRequest(ctx, {
    task,
    run,
    gh,
    number: pr.number,
    base,
    remote,
    mergeMethod: settings.integration.mergeMethod,
    pollMs: settings.integration.ciPollSeconds * 1000,
    deadline,
    signal,
    record,
  });
}

/**
 * After a restart: a run whose task is AWAITING_CI carries on waiting for its pull request (no new push, no second
 * pull request), with a fresh CI deadline.
 */
export async function resumePullRequestWait(
  ctx: RunContext,
  input: Pick<PullRequestFlowInput, 'task' | 'run' | 'plan' | 'signal' | 'record' | 'redactor'>,
): Promise<PullRequestOutcome> {
  const { settings } = input.plan;
  const pr = input.run.pullRequest!;
  let gh: GitHubAccess;
  try {
    gh = await openGitHub(ctx, settings, (token) => input.redactor.add('GITHUB_TOKEN', token));
  } catch (error) {
    return { ok: false, code: 'github-refused', reason: errorMessage(error) };
  }
  input.record(`resuming the wait for pull request #${pr.number} (${pr.url}) after a restart`);
  return awaitPullRequest(ctx, {
    task: input.task,
    run: input.run,
    gh,
    number: pr.number,
    base: pr.base,
    remote: settings.integration.remote,
    mergeMethod: settings.integration.mergeMethod,
    pollMs: settings.integration.ciPollSeconds * 1000,
    deadline: Date.now() + settings.integration.ciTimeoutSeconds * 1000,
    signal: input.signal,
    record: input.record,
  });
}

/**
 * Push mode's second push, and pull-request mode's first step: the commit goes to `branch` on the remote through the
 * pre-push guard (in process, so it runs whether or not the hook is installed), forced (the branch is Switchyard's:
 * a new attempt replaces the last one's commit), with a token only that git process sees.
 */
export async function pushBranch(
  ctx: RunContext,
  gh: GitHubAccess | undefined,
  input: Pick<PullRequestFlowInput, 'run' | 'record'>,
  settings: ProjectSettings,
  commit: string,
  branch: string,
): Promise<PullRequestOutcome | undefined> {
  const { remote } = settings.integration;
  const zero = '0'.repeat(40);
  const guard = await runPrePushGuard({
    cwd: ctx.root,
    root: ctx.root,
    remote,
    runId: input.run.id,
    stdin: [
      {
        localRef: `refs/heads/${input.run.branch}`,
        localSha: commit,
        remoteRef: `refs/heads/${branch}`,
        remoteSha: zero,
      },
    ],
  });
  if (guard.blocked) {
    const secret = guard.results.some((r) => r.guard === 'secret-scan' && r.verdict === 'block');
    const reason = `the pre-push guard refused the push to ${remote}:\n${guard.lines.join('\n')}`;
    return { ok: false, code: secret ? 'policy-violation' : 'guard-blocked', reason, feedback: reason };
  }
  const env = gh ? await gh.gitEnv() : {};
  try {
    await git(
      ctx.root,
      ['push', '--quiet', '--no-verify', '--force', remote, `${commit}:refs/heads/${branch}`],
      [0],
      env,
    );
  } catch (error) {
    const message = errorMessage(error);
    if (gh && /\b40[13]\b|Authentication failed|Permission to .* denied|could not read Username/i.test(message))
      return refused(gh, `the push to ${remote} was refused: ${message}`);
    return { ok: false, code: 'integration-error', reason: `pushing ${branch} to ${remote} failed: ${message}` };
  }
  input.record(`pushed ${commit.slice(0, 12)} to ${remote} as ${branch}`);
  return undefined;
}

/** The repository exists for this token, the token may push, the base branch exists: its name. */
async function preflight(gh: GitHubAccess, settings: ProjectSettings): Promise<string> {
  const repository = `${gh.owner}/${gh.repo}`;
  const named = settings.github.repository ? 'github.repository' : `the URL of integration.remote`;
  let repo;
  try {
    const res = await gh.octokit.rest.repos.get({ owner: gh.owner, repo: gh.repo });
    repo = parseGitHub(Repository, res.data, `GET /repos/${repository}`);
    const scopes = res.headers['x-oauth-scopes'];
    if (typeof scopes === 'string' && !/\b(?:public_)?repo\b/.test(scopes))
      throw new ConfigError(
        `${gh.source} lacks the scopes pull-request mode needs: GitHub lists "${scopes || '(none)'}"; give it the repo scope (or contents and pull requests: write for a fine-grained token)`,
      );
    if (repo.permissions && repo.permissions.push === false)
      throw new ConfigError(
        `${gh.source} cannot push to ${repository} (GitHub: permissions.push is false): give it write access`,
      );
  } catch (error) {
    if ((error as { status?: number }).status === 404)
      throw new ConfigError(
        `${named} names ${repository}, and GitHub answered 404 Not Found: no such repository, or ${gh.source} cannot see it; set github.repository to owner/name`,
      );
    throw error;
  }
  const base = settings.integration.base ?? repo.default_branch;
  try {
    await gh.octokit.rest.repos.getBranch({ owner: gh.owner, repo: gh.repo, branch: base });
  } catch (error) {
    if ((error as { status?: number }).status === 404)
      throw new ConfigError(
        `integration.base "${base}" does not exist in ${repository} (GitHub answered 404 ${errorMessage(error).split(' - ')[0]}): set integration.base to an existing branch`,
      );
    throw error;
  }
  return base;
}

class ConfigError extends Error {}

/**
 * Runs `fn`, retrying what GitHub fails transiently (unreachable, 5xx, rate limits) with backoff up to the CI
 * deadline; a configuration error, a 401/403 or another permanent answer ends at once.
 */
async function untilDeadline<T>(
  gh: GitHubAccess,
  deadline: number,
  signal: AbortSignal,
  record: (message: string) => void,
  fn: () => Promise<T>,
): Promise<{ value: T } | { outcome: PullRequestOutcome }> {
  let waitMs = 1_000;
  for (;;) {
    try {
      return { value: await fn() };
    } catch (error) {
      const message = errorMessage(error);
      if (error instanceof ConfigError || isSwitchyardError(error, 'invalid-input'))
        return { outcome: { ok: false, code: 'github-refused', reason: message } };
      const status = (error as { status?: number }).status;
      if (status === 401 || (status === 403 && !/rate limit/i.test(message)))
        return { outcome: refused(gh, `${status} ${message}`) };
      const c = classify(error);
      if (c.class === 'permanent')
        return {
          outcome: { ok: false, code: 'github-refused', reason: `GitHub answered ${status ?? ''}: ${message}` },
        };
      if (signal.aborted) return { outcome: { ok: false, code: 'canceled', reason: 'stopped while reaching GitHub' } };
      const left = deadline - Date.now();
      if (left <= 0)
        return {
          outcome: {
            ok: false,
            code: 'ci-timeout',
            reason:
              'GitHub stayed unreachable until the CI deadline (integration.ciTimeoutSeconds); the last error: ' +
              message,
          },
        };
      const wait = Math.min(waitMs, left);
      record(`GitHub failed (${c.rule}): ${message}; trying again in ${(wait / 1000).toFixed(1)} s`);
      await new Promise((r) => setTimeout(r, wait));
      waitMs = Math.min(waitMs * 2, 60_000);
    }
  }
}

function usage(input: PullRequestFlowInput): { usage?: Usage } {
  return input.usage ? { usage: input.usage } : {};
}

import { SwitchyardError } from '../../errors';
import { closePullRequest, getPullRequest } from '../../github/pullRequests';
import { taskPullRequest } from '../../model/taskPullRequest';
import type { RunContext } from '../runContext';
import { savePullRequest } from './awaitPullRequest';
import { openGitHub } from './githubAccess';

export interface ClosedPullRequest {
  taskId: string;
  number: number;
  url: string;
  /** `closed`: closed now; `merged` or `already-closed`: GitHub had it so already (the record now says so). */
  outcome: 'closed' | 'merged' | 'already-closed';
}

/**
 * Closes the open pull request of a task on GitHub without merging it (a FAILED task's, which nothing else would
 * close), with the project's GitHub access (the token of `github.apiUrl`'s host), and records it on the run. Its
 * branch stays; a retry opens a new pull request. A PR GitHub reports merged or closed already is recorded as it is
 * and not changed. A task whose pull request is not open is an `invalid-input` error.
 */
export async function closeTaskPullRequest(ctx: RunContext, taskId: string): Promise<ClosedPullRequest> {
  const state = await ctx.store.read();
  const task = state.tasks.find((t) => t.id === taskId);
  if (!task) throw new SwitchyardError('unknown-task', `unknown task "${taskId}"`);
  const pr = taskPullRequest(task, state.runs);
  if (!pr?.runId) throw new SwitchyardError('invalid-input', `task ${taskId} has no pull request to close`);
  if (pr.state !== 'open')
    throw new SwitchyardError('invalid-input', `task ${taskId}: pull request #${pr.number} is already ${pr.state}`);
  const gh = await openGitHub(ctx, state.settings, () => undefined);
  const at = { octokit: gh.octokit, owner: gh.owner, repo: gh.repo };
  const now = await getPullRequest(at, pr.number);
  const base = { taskId, number: pr.number, url: pr.url };
  if (now.merged || now.merged_at) {
    await savePullRequest(ctx, pr.runId, {
      state: 'merged',
      ...(now.merge_commit_sha ? { mergeCommit: now.merge_commit_sha } : {}),
    });
    return { ...base, outcome: 'merged' };
  }
  if (now.state === 'closed') {
    await savePullRequest(ctx, pr.runId, { state: 'closed' });
    return { ...base, outcome: 'already-closed' };
  }
  await closePullRequest(at, pr.number);
  await savePullRequest(ctx, pr.runId, { state: 'closed' });
  return { ...base, outcome: 'closed' };
}

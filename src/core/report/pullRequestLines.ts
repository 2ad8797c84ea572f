import type { PullRequestRecord } from '../model/pullRequestRecord';
import type { ProjectState } from '../store/projectState';

const MARK: Record<string, string> = { success: '✓', failure: '✗', pending: '…', missing: '?' };

/** The pull request of a task's latest run that opened one (pull-request mode), if any. */
export function latestPullRequest(state: ProjectState, taskId: string): PullRequestRecord | undefined {
  for (let i = state.runs.length - 1; i >= 0; i--) {
    const run = state.runs[i]!;
    if (run.taskId === taskId && run.pullRequest) return run.pullRequest;
  }
  return undefined;
}

/**
 * `pull request #12 open: https://github.com/o/r/pull/12 (switchyard/pr/t1 → main)` and one line with each required
 * check's state (`build ✓ success · lint … in_progress · deploy ? not reported`), then any warnings.
 */
export function pullRequestLines(pr: PullRequestRecord): string[] {
  const merged = pr.mergeCommit ? ` as ${pr.mergeCommit.slice(0, 12)}` : '';
  const lines = [`pull request #${pr.number} ${pr.state}${merged}: ${pr.url} (${pr.head} → ${pr.base})`];
  if (pr.checks?.length)
    lines.push(
      `required checks: ${pr.checks
        .map((c) => `${c.name} ${MARK[c.state]} ${c.state === 'missing' ? 'not reported' : (c.conclusion ?? c.state)}`)
        .join(' · ')}`,
    );
  else if (pr.state === 'open') lines.push('required checks: none reported yet');
  for (const w of pr.warnings ?? []) lines.push(`warning: ${w}`);
  return lines;
}

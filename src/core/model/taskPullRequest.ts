import type { RequiredCheckRecord } from './pullRequestRecord';
import type { Run } from './run';
import type { Task } from './task';

/** What a view shows of a task's pull request: its run's record, or only the merged PR the task recorded. */
export interface TaskPullRequest {
  number: number;
  url: string;
  state: 'open' | 'merged' | 'closed';
  /** The run whose record this is (absent when only `task.integration.pullRequest` is known). */
  runId?: string;
  repository?: string;
  head?: string;
  base?: string;
  headSha?: string;
  checks: readonly RequiredCheckRecord[];
  mergeCommit?: string;
  warnings: readonly string[];
}

/**
 * The pull request a task shows: the record of its latest run that has one (the task's last run first), else the
 * merged PR recorded on the task (`integration.pullRequest`). Undefined when the task never had a PR.
 */
export function taskPullRequest(task: Task, runs: readonly Run[]): TaskPullRequest | undefined {
  const own = runs.filter((r) => r.taskId === task.id && r.pullRequest);
  const last = own.find((r) => r.id === task.lastRunId);
  const run =
    last ??
    own.reduce<Run | undefined>(
      (latest, r) =>
        !latest || r.startedAt > latest.startedAt || (r.startedAt === latest.startedAt && r.attempt > latest.attempt)
          ? r
          : latest,
      undefined,
    );
  const pr = run?.pullRequest;
  if (run && pr) {
    return {
      number: pr.number,
      url: pr.url,
      state: pr.state,
      runId: run.id,
      repository: pr.repository,
      head: pr.head,
      base: pr.base,
      ...(pr.headSha ? { headSha: pr.headSha } : {}),
      checks: pr.checks ?? [],
      ...(pr.mergeCommit ? { mergeCommit: pr.mergeCommit } : {}),
      warnings: pr.warnings ?? [],
    };
  }
  const merged = task.integration?.pullRequest;
  if (!merged) return undefined;
  return { number: merged.number, url: merged.url, state: 'merged', checks: [], warnings: [] };
}

/** `2/3 checks passed, 1 failed` (or `no required checks recorded`). */
export function checksSummary(checks: readonly RequiredCheckRecord[]): string {
  if (!checks.length) return 'no required checks recorded';
  const count = (state: RequiredCheckRecord['state']): number => checks.filter((c) => c.state === state).length;
  const parts = [`${count('success')}/${checks.length} checks passed`];
  if (count('failure')) parts.push(`${count('failure')} failed`);
  if (count('pending')) parts.push(`${count('pending')} pending`);
  if (count('missing')) parts.push(`${count('missing')} not registered yet`);
  return parts.join(', ');
}

/** `PR #12 open · 1/2 checks passed, 1 pending` */
export function pullRequestLine(pr: TaskPullRequest): string {
  const checks = pr.checks.length || pr.state === 'open' ? ` · ${checksSummary(pr.checks)}` : '';
  return `PR #${pr.number} ${pr.state}${checks}`;
}

/** The check's state as a row says it: `failure (timed_out)`, `missing (not registered yet)`. */
export function checkStateText(check: RequiredCheckRecord): string {
  if (check.state === 'missing') return 'missing (not registered yet)';
  if (check.conclusion && check.conclusion !== check.state) return `${check.state} (${check.conclusion})`;
  return check.state;
}

/**
 * Whether the task's change landed through a pull request (DONE with the merged PR recorded): on the remote base
 * already, so no local merge, and announced by its merge rather than as a DONE run.
 */
export function landedByPullRequest(task: Task): boolean {
  return task.state === 'DONE' && task.integration?.pullRequest !== undefined;
}

/** Only http(s) URLs are opened (a stored URL is data, never a `command:` or `file:` link). */
export function isWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

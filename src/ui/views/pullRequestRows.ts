import type { RequiredCheckRecord } from '../../core/model/pullRequestRecord';
import { checkStateText, checksSummary, pullRequestLine, type TaskPullRequest } from '../../core/model/taskPullRequest';
import { plainLine, plainText } from '../../core/text/plainText';

/** A tree row as data (no `vscode` here, so the rows are testable as plain values). */
export interface RowSpec {
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
  /** A codicon id, and the theme color it is drawn in. */
  icon: { id: string; color?: string };
}

const PR_ICONS: Record<TaskPullRequest['state'], RowSpec['icon']> = {
  open: { id: 'git-pull-request', color: 'charts.blue' },
  merged: { id: 'git-merge', color: 'charts.purple' },
  closed: { id: 'git-pull-request-closed', color: 'charts.red' },
};

const CHECK_ICONS: Record<RequiredCheckRecord['state'], RowSpec['icon']> = {
  success: { id: 'pass', color: 'testing.iconPassed' },
  failure: { id: 'error', color: 'testing.iconFailed' },
  pending: { id: 'clock', color: 'testing.iconQueued' },
  missing: { id: 'circle-large-outline', color: 'disabledForeground' },
};

/** The text mark of a check's state, for tooltips and the status line: ✓ ✗ … ?. */
export const CHECK_MARKS: Record<RequiredCheckRecord['state'], string> = {
  success: '✓',
  failure: '✗',
  pending: '…',
  missing: '?',
};

/**
 * The pull-request row under a task: `PR #12` · `open · 1/2 checks passed, 1 pending`; contextValue
 * `pullRequest.<state>` (Open Pull Request in its menu). GitHub's texts are data: plain one-line text.
 */
export function pullRequestRow(pr: TaskPullRequest): RowSpec {
  const lines = [pullRequestLine(pr), pr.url];
  if (pr.repository) lines.push(`${pr.repository}: ${pr.head ?? '?'} → ${pr.base ?? '?'}`);
  if (pr.headSha) lines.push(`head ${pr.headSha.slice(0, 12)}`);
  if (pr.mergeCommit) lines.push(`merge commit ${pr.mergeCommit.slice(0, 12)}`);
  lines.push(...checkLines(pr.checks));
  for (const w of pr.warnings) lines.push(`warning: ${w}`);
  return {
    label: `PR #${pr.number}`,
    description: plainLine(`${pr.state} · ${checksSummary(pr.checks)}`),
    tooltip: plainText(lines.join('\n')),
    contextValue: `pullRequest.${pr.state}`,
    icon: PR_ICONS[pr.state],
  };
}

/** One required check under the PR row: its name, and its state (with GitHub's conclusion) as icon and text. */
export function checkRow(pr: TaskPullRequest, check: RequiredCheckRecord): RowSpec {
  const lines = [`${check.name}: ${checkStateText(check)}`, `required check of PR #${pr.number}`];
  if (check.url) lines.push(check.url);
  return {
    label: plainLine(check.name),
    description: plainLine(checkStateText(check)),
    tooltip: plainText(lines.join('\n')),
    contextValue: `check.${check.state}`,
    icon: CHECK_ICONS[check.state],
  };
}

/** `required checks:` then `  ✓ build: success` per check (none: nothing). */
export function checkLines(checks: readonly RequiredCheckRecord[]): string[] {
  if (!checks.length) return [];
  return ['required checks:', ...checks.map((c) => `  ${CHECK_MARKS[c.state]} ${c.name}: ${checkStateText(c)}`)];
}

/** States no exact-match menu clause names, so their task rows may carry a `.pr` suffix (Open Pull Request). */
const PR_SUFFIX_STATES: ReadonlySet<string> = new Set(['AWAITING_CI', 'DONE']);

/**
 * A task row's contextValue: `task.<STATE>`, or `task.<STATE>.pr` for an AWAITING_CI or DONE task with a pull
 * request (the other states keep the plain value their menus match exactly; their PR row offers the command).
 */
export function taskContextValue(state: string, hasPullRequest: boolean): string {
  return hasPullRequest && PR_SUFFIX_STATES.has(state) ? `task.${state}.pr` : `task.${state}`;
}

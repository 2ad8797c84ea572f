import * as vscode from 'vscode';
import { formatUsd, totalCostUsd } from '../../core/text/usageText';
import { shownRunState } from '../../core/model/runStates';
import type { TaskState } from '../../core/model/taskStates';
import { runDuration } from './formatDuration';
import type {
  CheckNode,
  ConfigProblemNode,
  MoreFinishedNode,
  RunNode,
  StateNode,
  TaskNode,
  TaskTreeNode,
} from './taskTreeNodes';
import { COMMANDS } from '../commandIds';
import { checkLines, checkRow, pullRequestRow, taskContextValue, type RowSpec } from './pullRequestRows';
import { pullRequestLine } from '../../core/model/taskPullRequest';
import { plainLine, plainText } from '../../core/text/plainText';
import { formatMs } from '../../core/text/formatMs';
import { formatTokens } from '../../core/text/usageText';

const TASK_ICONS: Record<TaskState, string> = {
  DRAFT: 'edit',
  READY: 'circle-large-outline',
  RUNNING: 'sync~spin',
  VERIFYING: 'beaker',
  REVIEWING: 'eye',
  INTEGRATING: 'git-merge',
  AWAITING_CI: 'git-pull-request',
  DONE: 'pass',
  BLOCKED: 'debug-pause',
  CANCELED: 'circle-slash',
  CHANGES_REQUESTED: 'request-changes',
  FAILED: 'error',
};

const RUN_ICONS: Record<ReturnType<typeof shownRunState>, string> = {
  RUNNING: 'loading~spin',
  AWAITING_CI: 'git-pull-request',
  SUCCEEDED: 'check',
  FAILED: 'close',
  CANCELED: 'circle-slash',
  STALE_RESULT: 'history',
};

/**
 * Labels: state `READY`; task `t1 · title`; run `t1.2`. Titles, specs and
 * failure reasons are untrusted: labels and descriptions are plain one-line
 * text (plainLine) and tooltips plain strings (plainText), never Markdown.
 * contextValues: `state.X`, `task.X` (`task.X.pr` for an AWAITING_CI or DONE task with a pull request,
 * `task.DONE.discarded` for a discarded change), `run.X`
 * (`run.X.salvage` when the run's partial work was salvaged), `pullRequest.<open|merged|closed>` for a task's PR
 * row and `check.<state>` for its required checks. */
export function toTreeItem(node: TaskTreeNode): vscode.TreeItem {
  switch (node.kind) {
    case 'state':
      return stateItem(node);
    case 'task':
      return taskItem(node);
    case 'run':
      return runItem(node);
    case 'pull-request':
      return rowItem(pullRequestRow(node.pullRequest), `pr:${node.taskId}`, node.pullRequest.checks.length > 0);
    case 'check':
      return checkItem(node);
    case 'more-finished':
      return moreFinishedItem(node);
    case 'config-problem':
      return configProblemItem(node);
  }
}

function configProblemItem(node: ConfigProblemNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Open Project Config', vscode.TreeItemCollapsibleState.None);
  item.id = 'config-problem';
  const n = node.problems.length;
  item.description = `${n} setting${n === 1 ? '' : 's'} ignored in .switchyard/config.json`;
  item.tooltip = plainText(`${node.problems.join('\n')}\nThe other settings apply. Click to open the file.`);
  item.contextValue = 'configProblem';
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  item.command = { command: COMMANDS.openProjectConfig, title: 'Open Project Config' };
  return item;
}

function moreFinishedItem(node: MoreFinishedNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Show more finished tasks…', vscode.TreeItemCollapsibleState.None);
  item.id = 'more-finished';
  item.description = `${node.shown} newest shown`;
  item.tooltip = `The tree shows the ${node.shown} newest finished tasks (DONE, FAILED, CANCELED); older ones are in the history. Click to show ${node.page} more (setting switchyard.tree.finishedShown: how many at first).`;
  item.contextValue = 'moreFinished';
  item.iconPath = new vscode.ThemeIcon('history');
  item.command = { command: COMMANDS.showMoreFinished, title: 'Show more finished tasks' };
  return item;
}

function checkItem(node: CheckNode): vscode.TreeItem {
  return rowItem(checkRow(node.pullRequest, node.check), `check:${node.taskId}:${node.check.name}`, false);
}

function rowItem(spec: RowSpec, id: string, expandable: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(
    spec.label,
    expandable ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
  );
  item.id = id;
  item.description = spec.description;
  item.tooltip = spec.tooltip;
  item.contextValue = spec.contextValue;
  item.iconPath = new vscode.ThemeIcon(
    spec.icon.id,
    spec.icon.color ? new vscode.ThemeColor(spec.icon.color) : undefined,
  );
  return item;
}

function stateItem(node: StateNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.state, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `state:${node.state}`;
  item.description = String(node.tasks.length);
  if (node.ofNewestFinished !== undefined) {
    item.description = `${node.tasks.length} of the newest ${node.ofNewestFinished} finished`;
    const shown = node.ofNewestFinished;
    item.tooltip = `${node.state} tasks among the ${shown} newest finished ones; older ones are not shown.`;
  }
  item.contextValue = `state.${node.state}`;
  item.iconPath = new vscode.ThemeIcon(TASK_ICONS[node.state]);
  return item;
}

function taskItem(node: TaskNode): vscode.TreeItem {
  const { task } = node;
  const { pullRequest } = node;
  const collapsed =
    node.runs.length || pullRequest ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
  const item = new vscode.TreeItem(plainLine(`${task.id} · ${task.spec.title}`), collapsed);
  item.id = `task:${task.id}`;
  const cost = totalCostUsd(node.runs);
  const pr = pullRequest ? ` · PR #${pullRequest.number} ${pullRequest.state}` : '';
  const state = task.discarded ? `${task.state} (change discarded)` : task.state;
  item.description = plainLine(`${node.lane} · ${state}${cost > 0 ? ` · ${formatUsd(cost)}` : ''}${pr}`);
  // A discarded change has nothing left to open, merge or check out: `task.DONE.discarded` matches no such menu.
  item.contextValue = task.discarded
    ? `task.${task.state}.discarded`
    : taskContextValue(task.state, pullRequest !== undefined);
  item.iconPath = new vscode.ThemeIcon(TASK_ICONS[task.state]);
  const lines = [
    `${task.id} · ${task.spec.title}`,
    `${task.state} on lane ${node.lane}, ${task.attempts} attempt(s)${cost > 0 ? `, ${formatUsd(cost)} so far` : ''}`,
  ];
  lines.push(...node.waits);
  if (task.spec.spec) lines.push('', task.spec.spec, '');
  if (task.spec.files.length) lines.push(`files: ${task.spec.files.join(', ')}`);
  if (task.spec.acceptance) lines.push(`acceptance: ${task.spec.acceptance}`);
  if (task.failureReason) lines.push(`failure: ${task.failureReason}`);
  if (pullRequest) lines.push(`${pullRequestLine(pullRequest)}: ${pullRequest.url}`, ...checkLines(pullRequest.checks));
  item.tooltip = plainText(lines.join('\n'));
  return item;
}

function runItem(node: RunNode): vscode.TreeItem {
  const { run } = node;
  const item = new vscode.TreeItem(run.id, vscode.TreeItemCollapsibleState.None);
  item.id = `run:${run.id}`;
  const state = shownRunState(run);
  const parts = [run.lane, `attempt ${run.attempt}`, runDuration(run), state];
  if (run.resumes) parts.push(`resumed ${run.resumes}×`);
  if (run.usage?.costUsd) parts.push(formatUsd(run.usage.costUsd));
  if (run.failureReason) parts.push(run.failureReason);
  item.description = plainLine(parts.join(' · '));
  item.contextValue = run.salvage ? `run.${run.state}.salvage` : `run.${run.state}`;
  item.iconPath = new vscode.ThemeIcon(RUN_ICONS[state]);
  const lines = [
    `Run ${run.id}: ${state === 'AWAITING_CI' ? 'AWAITING_CI (its pull request waits for the required checks)' : state}`,
    `lane ${run.lane}, attempt ${run.attempt}, ${runDuration(run)}`,
    `branch ${run.branch}`,
  ];
  if (run.diffStat) lines.push(`${run.diffStat.files} file(s), +${run.diffStat.insertions} −${run.diffStat.deletions}`);
  if (run.setup) {
    const cache = run.setup.cache === 'none' ? '' : ` (setup cache ${run.setup.cache})`;
    lines.push(`worktree setup: ${formatMs(run.setup.durationMs)}${cache}`);
  }
  if (run.retryReason) lines.push(`retry after: ${run.retryReason}`);
  if (run.failureReason)
    lines.push(
      run.state === 'CANCELED'
        ? `canceled: ${run.failureReason}`
        : `failure (${run.failureCode ?? 'unclassified'}): ${run.failureReason}`,
    );
  if (run.salvage)
    lines.push(
      `salvaged: ${run.salvage.files} file(s) on ${run.salvage.branch} (Promote Salvage puts them on a branch of yours)`,
    );
  if (run.summary) lines.push(`summary: ${run.summary}`);
  if (run.usage && (run.usage.inputTokens || run.usage.costUsd))
    lines.push(`usage: ${formatTokens(run.usage)}, $${run.usage.costUsd.toFixed(4)}`);
  if (run.resumes) {
    const c = run.resumeCounts;
    lines.push(
      `resumed ${run.resumes}× from the journal` +
        `${c ? `: replayed ${c.replayed}, re-sent ${c.resent}, re-run ${c.rerun}, uncertain ${c.uncertain}` : ''}`,
    );
  }
  if (node.guards.length) lines.push('guards:', ...node.guards.map((g) => `  ${g}`));
  item.tooltip = plainText(lines.join('\n'));
  return item;
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Run } from '../../core/model/run';
import type { Task } from '../../core/model/task';
import type { Project } from '../../core/project/project';
import { failureFix } from '../../core/report/failureFix';
import { taskPullRequest } from '../../core/model/taskPullRequest';
import { failureHeadline } from '../../core/text/failureHeadline';
import { COMMANDS, SETTINGS } from '../commandIds';
import { lanesIgnoredInRestrictedMode, MANAGE_TRUST, MANAGE_TRUST_COMMAND } from '../config/restrictedLanes';
import { showMessage } from '../views/showMessage';

export const FAILURE_ACTIONS = {
  openSettings: 'Open Settings',
  setApiKey: 'Set API Key',
  manageTrust: MANAGE_TRUST,
  showLog: 'Show Log',
  retry: 'Retry',
  pullRequest: 'Pull Request…',
} as const;

/**
 * The notification of a FAILED task. It leads with the reason in plain words (the agent's own error, without the
 * retry policy's notes or breaker news), then names the task. Its actions: the fix (Set API Key for the secret the
 * failure names; Open Settings at the lane's key; Manage Workspace Trust when the lane's settings are there but
 * ignored in Restricted Mode), Show Log (the run's readable log, its output channel: the notification comes back,
 * so Retry is still there) and Retry (the task again, run at once, like the panel's Retry); while the task's pull
 * request is open (pull-request mode), Pull Request… (open it on GitHub, or close it: nothing else closes a failed
 * task's pull request). Returns the text and the actions first offered.
 */
export async function announceFailure(
  project: Project,
  task: Task,
  run: Run,
): Promise<{ message: string; actions: string[] }> {
  const raw = run.failureReason ?? task.failureReason ?? 'no reason recorded';
  const { reason, how } = failureHeadline(raw);
  const message = `${reason} — Switchyard: ${task.id} · ${task.spec.title} failed${how ? ` (${how})` : ''}`;
  const fix = failureFix(run.failureCode, raw, project.registry.get(run.lane)?.manifest);
  const restricted = fix?.kind === 'setting' && (await lanesIgnoredInRestrictedMode(run.lane)).length > 0;
  const fixActions =
    fix?.kind === 'secret'
      ? [FAILURE_ACTIONS.setApiKey]
      : restricted
        ? [FAILURE_ACTIONS.manageTrust]
        : fix?.kind === 'setting'
          ? [FAILURE_ACTIONS.openSettings]
          : [];
  const actionsNow = async (): Promise<string[]> => [
    ...fixActions,
    FAILURE_ACTIONS.showLog,
    FAILURE_ACTIONS.retry,
    ...((await openPullRequestOf(project, task.id)) ? [FAILURE_ACTIONS.pullRequest] : []),
  ];
  const actions = await actionsNow();
  const show = (offered: string[]): void => {
    void showMessage('warning', message, ...offered).then(async (picked) => {
      switch (picked) {
        case FAILURE_ACTIONS.setApiKey:
          if (fix?.kind === 'secret') await vscode.commands.executeCommand(COMMANDS.setApiKey, run.lane, fix.secret);
          return;
        case FAILURE_ACTIONS.manageTrust:
          await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
          return;
        case FAILURE_ACTIONS.openSettings:
          return openLaneSetting(run.lane);
        case FAILURE_ACTIONS.showLog:
          await vscode.commands.executeCommand(COMMANDS.showRunLog, run.id);
          show(await actionsNow()); // reading the log is not a decision: Retry stays on offer
          return;
        case FAILURE_ACTIONS.pullRequest:
          await pullRequestAction(project, task.id);
          show(await actionsNow()); // nor is looking at the pull request, or closing it
          return;
        case FAILURE_ACTIONS.retry:
          await vscode.commands.executeCommand(COMMANDS.retryTask, task.id);
          return;
      }
    });
  };
  show(actions);
  return { message, actions };
}

/** The number of the task's pull request while it is open. */
async function openPullRequestOf(project: Project, taskId: string): Promise<number | undefined> {
  const state = await project.state();
  const task = state.tasks.find((t) => t.id === taskId);
  const pr = task && taskPullRequest(task, state.runs);
  return pr?.state === 'open' ? pr.number : undefined;
}

/** Pull Request…: open the failed task's pull request on GitHub, or close it (confirmed by Close Pull Request). */
async function pullRequestAction(project: Project, taskId: string): Promise<void> {
  const number = await openPullRequestOf(project, taskId);
  if (number === undefined) return;
  const open = {
    label: `$(git-pull-request) Open pull request #${number} on GitHub`,
    command: COMMANDS.openPullRequest,
  };
  const close = {
    label: `$(git-pull-request-closed) Close pull request #${number} without merging`,
    command: COMMANDS.closePullRequest,
  };
  const picked = await vscode.window.showQuickPick([open, close], {
    placeHolder: `Pull request #${number} of ${taskId}`,
  });
  // Close asks first unless handed a bare id (a program's call): the task goes as `{taskId}`, a person's pick.
  if (picked) await vscode.commands.executeCommand(picked.command, { taskId }).then(undefined, () => undefined);
}

const LANES_SETTING = `${SETTINGS.section}.${SETTINGS.lanes}`;

/**
 * The lane's own settings: the folder's `.vscode/settings.json` with the cursor on the lane's key when the file sets
 * it, else the Settings editor on exactly `switchyard.lanes`.
 */
export async function openLaneSetting(laneId: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const file = folder ? join(folder.uri.fsPath, '.vscode', 'settings.json') : undefined;
  const text = file ? await readFile(file, 'utf8').catch(() => '') : '';
  const lanesAt = text.indexOf(`"${LANES_SETTING}"`);
  const laneAt = lanesAt < 0 ? -1 : text.indexOf(`"${laneId}"`, lanesAt);
  if (file && laneAt >= 0) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const start = document.positionAt(laneAt);
    const end = document.positionAt(laneAt + laneId.length + 2);
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(start, end) });
    return;
  }
  await vscode.commands.executeCommand('workbench.action.openSettings', `@id:${LANES_SETTING}`);
}

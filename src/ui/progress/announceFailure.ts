import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Run } from '../../core/model/run';
import type { Task } from '../../core/model/task';
import type { Project } from '../../core/project';
import { failureFix } from '../../core/retry/failureFix';
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
} as const;

/**
 * The notification of a FAILED task. It leads with the reason in plain words (the agent's own error, without the
 * retry policy's notes or breaker news), then names the task. Its actions: the fix (Set API Key for the secret the
 * failure names; Open Settings at the lane's key; Manage Workspace Trust when the lane's settings are there but
 * ignored in Restricted Mode), Show Log (the run's readable log, its output channel: the notification comes back,
 * so Retry is still there) and Retry (the task again, run at once, like the panel's Retry). Returns the text and the
 * actions offered.
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
  const actions = [
    ...(fix?.kind === 'secret'
      ? [FAILURE_ACTIONS.setApiKey]
      : restricted
        ? [FAILURE_ACTIONS.manageTrust]
        : fix?.kind === 'setting'
          ? [FAILURE_ACTIONS.openSettings]
          : []),
    FAILURE_ACTIONS.showLog,
    FAILURE_ACTIONS.retry,
  ];
  const show = (): void => {
    void showMessage('warning', message, ...actions).then(async (picked) => {
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
          show(); // reading the log is not a decision: Retry stays on offer
          return;
        case FAILURE_ACTIONS.retry:
          await vscode.commands.executeCommand(COMMANDS.retryTask, task.id);
          return;
      }
    });
  };
  show();
  return { message, actions };
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

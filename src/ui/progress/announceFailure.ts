import * as vscode from 'vscode';
import type { Run } from '../../core/model/run';
import type { Task } from '../../core/model/task';
import type { Project } from '../../core/project';
import { failureFix } from '../../core/retry/failureFix';
import { eventsPath } from '../../core/store/runFiles';
import { COMMANDS } from '../commandIds';
import { openLaneSettings } from '../commands/configureLane';
import { showMessage } from '../views/showMessage';

export const FAILURE_ACTIONS = {
  openSettings: 'Open Settings',
  setApiKey: 'Set API Key',
  showLog: 'Show Log',
  retry: 'Retry',
} as const;

/**
 * The notification of a FAILED task: the real reason first (the attempts spent after it), then its fix (Open
 * Settings, or Set API Key for the secret the failure names), Show Log (the run's event log) and Retry (the task
 * again, run at once, like the panel's Retry). Returns the text and the actions offered.
 */
export function announceFailure(project: Project, task: Task, run: Run): { message: string; actions: string[] } {
  const reason = task.failureReason ?? run.failureReason ?? 'no reason recorded';
  const message = `Switchyard: ${task.id} · ${task.spec.title} FAILED: ${reason}`;
  const fix = failureFix(run.failureCode, run.failureReason ?? reason, project.registry.get(run.lane)?.manifest);
  const actions = [
    ...(fix?.kind === 'secret'
      ? [FAILURE_ACTIONS.setApiKey]
      : fix?.kind === 'setting'
        ? [FAILURE_ACTIONS.openSettings]
        : []),
    FAILURE_ACTIONS.showLog,
    FAILURE_ACTIONS.retry,
  ];
  void showMessage('warning', message, ...actions).then(async (picked) => {
    switch (picked) {
      case FAILURE_ACTIONS.setApiKey:
        if (fix?.kind === 'secret') await vscode.commands.executeCommand(COMMANDS.setApiKey, run.lane, fix.secret);
        return;
      case FAILURE_ACTIONS.openSettings:
        return openLaneSettings();
      case FAILURE_ACTIONS.showLog:
        await vscode.window.showTextDocument(vscode.Uri.file(eventsPath(project.root, run.id)), { preview: true });
        return;
      case FAILURE_ACTIONS.retry:
        await vscode.commands.executeCommand(COMMANDS.retryTask, task.id);
        return;
    }
  });
  return { message, actions };
}

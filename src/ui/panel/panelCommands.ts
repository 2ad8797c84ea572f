import { access } from 'node:fs/promises';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { WebviewMessage } from '../../core/panel/panelProtocol';
import { COMMANDS } from '../commandIds';
import { showMessage } from '../views/showMessage';

type CommandMessage = Extract<WebviewMessage, { type: 'command' }>;

const TASK_COMMANDS = new Set([
  'runTask',
  'cancelTask',
  'retryTask',
  'setTaskLane',
  'openChanges',
  'mergeIntoCurrentBranch',
  'checkOutBranch',
  'openPullRequest',
]);
const RUN_COMMANDS = new Set(['showRunDiff', 'openWorktree']);

/**
 * Runs a panel action through the same commands as the palette: Run Task,
 * Cancel Task, Set Task Lane (its lane picker), Show Run Diff, Run Queue,
 * Refresh, Open Pull Request (the host reads the task's PR URL: the page
 * sends only the task id), and for a DONE task Open Changes, Merge into
 * Current Branch and Check Out Branch; Retry is Retry Task, which also starts
 * the new attempt. Open Worktree opens the run's worktree folder in a new
 * window (VS Code's own Open Folder). The commands show their own errors.
 */
export async function runPanelCommand(message: CommandMessage, log: vscode.LogOutputChannel): Promise<void> {
  const { command, taskId, runId } = message;
  if (TASK_COMMANDS.has(command) && !taskId)
    return void log.warn(`dropped panel command ${command}: it needs a taskId`);
  if (RUN_COMMANDS.has(command) && !runId) return void log.warn(`dropped panel command ${command}: it needs a runId`);
  log.info(`panel: ${command}${taskId ? ` ${taskId}` : ''}${runId ? ` ${runId}` : ''}`);
  try {
    switch (command) {
      case 'retryTask':
        // Retry Task queues the task again and starts it, as from the palette.
        await vscode.commands.executeCommand(COMMANDS.retryTask, taskId);
        return;
      case 'openWorktree':
        return await openWorktree(runId!);
      case 'showRunDiff':
        await vscode.commands.executeCommand(COMMANDS.showRunDiff, runId);
        return;
      case 'runQueue':
      case 'refresh':
        await vscode.commands.executeCommand(COMMANDS[command]);
        return;
      default:
        await vscode.commands.executeCommand(COMMANDS[command], taskId);
    }
  } catch (error) {
    // The Switchyard commands show their own errors; Open Worktree is ours to show.
    if (command === 'openWorktree') void showMessage('error', `Switchyard: ${errorMessage(error)}`);
    log.info(`panel: ${command} ended with: ${errorMessage(error)}`);
  }
}

async function openWorktree(runId: string): Promise<void> {
  const state = (await vscode.commands.executeCommand(COMMANDS.refresh)) as
    | { runs: { id: string; worktree: string; branch: string }[] }
    | undefined;
  const run = state?.runs.find((r) => r.id === runId);
  if (!run) throw new Error(`unknown run ${runId}`);
  const exists = await access(run.worktree).then(
    () => true,
    () => false,
  );
  if (!exists) {
    void showMessage(
      'warning',
      `Switchyard: the worktree of run ${runId} was removed (its change was integrated, it was kept for worktree.keepFailedDays, or Clean Worktrees removed it); its work is kept on branch ${run.branch} and Show Run Diff still shows its diff.`,
    );
    return;
  }
  await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(run.worktree), { forceNewWindow: true });
}

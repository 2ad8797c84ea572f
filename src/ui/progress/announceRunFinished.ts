import * as vscode from 'vscode';
import type { Project } from '../../core/project';
import { COMMANDS } from '../commandIds';
import type { Run } from '../../core/model/run';
import { showMessage } from '../views/showMessage';
import { announceFailure } from './announceFailure';
import { findTask } from './findTask';

/**
 * Tells the user how a task ended once one of its runs finishes: an
 * information message for DONE, a warning with the failure reason for FAILED.
 * A failed attempt that will be retried, and canceled runs, only show in the
 * progress notification. Returns the message shown, if any.
 */
export async function announceRunFinished(project: Project, run: Run): Promise<string | undefined> {
  const task = await findTask(project, run.taskId);
  if (!task) return undefined;
  const name = `${task.id} · ${task.spec.title}`;
  if (run.state === 'SUCCEEDED' && task.state === 'DONE') {
    const merged = run.integration ? `, merged into ${run.integration.branch}` : '';
    const where = `its change is on ${run.branch}${merged}`;
    const message = `Switchyard: ${name} is DONE (run ${run.id} on ${run.lane}): ${where}.`;
    void showMessage('info', message, ...Object.keys(DONE_ACTIONS)).then((picked) => {
      const command = picked && DONE_ACTIONS[picked];
      if (command) void vscode.commands.executeCommand(command, run.id).then(undefined, () => undefined);
    });
    return message;
  }
  if (run.state === 'FAILED' && task.state === 'FAILED') return (await announceFailure(project, task, run)).message;
  return undefined;
}

/** What a DONE notification offers, each the command of that name with the run. */
const DONE_ACTIONS: Record<string, string> = {
  'Open Changes': COMMANDS.openChanges,
  'Merge into Current Branch': COMMANDS.mergeIntoCurrentBranch,
  'Check Out Branch': COMMANDS.checkOutBranch,
};

/** The progress line for a finished run. */
export function runFinishedLine(run: Run): string {
  const reason = run.failureReason ? `: ${run.failureReason}` : '';
  return `${run.id} ${run.state}${reason}`;
}

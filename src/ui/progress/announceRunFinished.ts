import * as vscode from 'vscode';
import type { Project } from '../../core/project/project';
import { COMMANDS } from '../commandIds';
import type { Run } from '../../core/model/run';
import { showMessage } from '../views/showMessage';
import { announceFailure } from './announceFailure';
import { landedByPullRequest } from '../../core/model/taskPullRequest';

/**
 * Tells the user how a task ended once one of its runs finishes: an
 * information message for DONE, a warning with the failure reason for FAILED.
 * A failed attempt that will be retried, and canceled runs, only show in the
 * progress notification; a task whose pull request was merged is announced by the merge (landedByPullRequest).
 * Returns the message shown, if any.
 */
export async function announceRunFinished(project: Project, run: Run): Promise<string | undefined> {
  const task = (await project.tasks.find([run.taskId])).get(run.taskId);
  if (!task) return undefined;
  const name = `${task.id} · ${task.spec.title}`;
  if (landedByPullRequest(task)) return undefined;
  if (run.state === 'SUCCEEDED' && task.state === 'DONE') {
    const merged = run.integration ? `, merged into ${run.integration.branch}` : '';
    const where = `its change is on ${run.branch}${merged}`;
    const message = `Switchyard: ${name} is DONE (run ${run.id} on ${run.lane}): ${where}.`;
    offerDoneActions(message, run.id, DONE_ACTIONS.first);
    return message;
  }
  if (run.state === 'FAILED' && task.state === 'FAILED') return (await announceFailure(project, task, run)).message;
  return undefined;
}

/**
 * What a DONE notification offers, two buttons at a time (a toast cuts off a third): Open Changes and Merge; once the
 * changes are open (their diff editor's title has Merge and Discard too), the notification comes back with Merge and
 * Discard, so looking is not the end of it. Check Out Branch is in the diff editor's title menu and the row's.
 */
export const DONE_ACTIONS = {
  first: ['Open Changes', 'Merge'],
  afterOpen: ['Merge', 'Discard'],
} as const;

const DONE_COMMANDS: Record<string, string> = {
  'Open Changes': COMMANDS.openChanges,
  Merge: COMMANDS.mergeIntoCurrentBranch,
  Discard: COMMANDS.discardChange,
};

function offerDoneActions(message: string, runId: string, actions: readonly string[]): void {
  void showMessage('info', message, ...actions).then(async (picked) => {
    const command = picked && DONE_COMMANDS[picked];
    if (!command) return;
    // Discard asks first unless handed a bare id (a program's call): the run goes as `{runId}`, a person's pick.
    await vscode.commands.executeCommand(command, picked === 'Discard' ? { runId } : runId).then(
      () => undefined,
      () => undefined,
    );
    if (picked === 'Open Changes') offerDoneActions(message, runId, DONE_ACTIONS.afterOpen);
  });
}

/** The progress line for a finished run. */
export function runFinishedLine(run: Run): string {
  const reason = run.failureReason ? `: ${run.failureReason}` : '';
  return `${run.id} ${run.state}${reason}`;
}

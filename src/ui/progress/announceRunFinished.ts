import type { Project } from '../../core/project';
import type { Run } from '../../core/model/run';
import { showMessage } from '../views/showMessage';
import { announceFailure } from './announceFailure';

/**
 * Tells the user how a task ended once one of its runs finishes: an
 * information message for DONE, a warning with the failure reason for FAILED.
 * A failed attempt that will be retried, and canceled runs, only show in the
 * progress notification. Returns the message shown, if any.
 */
export async function announceRunFinished(project: Project, run: Run): Promise<string | undefined> {
  const state = await project.state();
  const task = state.tasks.find((t) => t.id === run.taskId);
  if (!task) return undefined;
  const name = `${task.id} · ${task.spec.title}`;
  if (run.state === 'SUCCEEDED' && task.state === 'DONE') {
    const message = `Switchyard: ${name} is DONE (run ${run.id} on ${run.lane}).`;
    void showMessage('info', message);
    return message;
  }
  if (run.state === 'FAILED' && task.state === 'FAILED') return announceFailure(project, task, run).message;
  return undefined;
}

/** The progress line for a finished run. */
export function runFinishedLine(run: Run): string {
  const reason = run.failureReason ? `: ${run.failureReason}` : '';
  return `${run.id} ${run.state}${reason}`;
}

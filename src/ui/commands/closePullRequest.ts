import type { ClosedPullRequest } from '../../core/project/branchService';
import type { Task } from '../../core/model/task';
import { taskPullRequest } from '../../core/model/taskPullRequest';
import type { ProjectState } from '../../core/project/project';
import { pickTask } from '../prompts/pickTask';
import { PromptCanceled } from '../prompts/promptCanceled';
import { confirmModal, showMessage } from '../views/showMessage';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

export const CONFIRM_CLOSE = 'Close Pull Request';
export const KEEP_OPEN = 'Keep It Open';

/**
 * `switchyard.closePullRequest(task | item)`: closes the task's open pull request on GitHub without merging it (a
 * FAILED task's stays open otherwise). Without an argument: a QuickPick of the tasks whose pull request is open. A
 * person's pick (the picker, a tree row, the failure notification's `{taskId}`) is confirmed first; a bare id handed
 * over by a program is not. The branch stays; Retry opens a new pull request.
 */
export async function closePullRequest(deps: CommandDeps, arg?: unknown): Promise<ClosedPullRequest> {
  const project = await deps.host.get();
  const state = await project.state();
  const open = state.tasks.filter((t) => taskPullRequest(t, state.runs)?.state === 'open');
  const taskId = taskIdFrom(arg) ?? (await pickOpen(state, open));
  const task = state.tasks.find((t) => t.id === taskId);
  const pr = task && taskPullRequest(task, state.runs);
  if (typeof arg !== 'string' && task && pr) {
    const confirmed = await confirmModal(
      `Close pull request #${pr.number} of ${task.id} · ${task.spec.title} on GitHub?`,
      `It is closed without merging; its branch ${pr.head ?? ''} stays on the remote. Retry opens a new pull request.`,
      CONFIRM_CLOSE,
      KEEP_OPEN,
    );
    if (!confirmed) throw new PromptCanceled();
  }
  const closed = await project.branches.closePullRequest(taskId);
  const how = {
    closed: 'closed on GitHub',
    merged: 'was merged on GitHub meanwhile: nothing closed',
    'already-closed': 'was already closed on GitHub',
  }[closed.outcome];
  void showMessage('info', `Switchyard: pull request #${closed.number} of ${closed.taskId} ${how}.`);
  void deps.snapshot.reload();
  return closed;
}

function pickOpen(state: ProjectState, tasks: Task[]): Promise<string> {
  if (!tasks.length) throw new Error('no task has an open pull request');
  return pickTask({ ...state, tasks }, 'Close the pull request of which task?');
}

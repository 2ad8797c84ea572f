import * as vscode from 'vscode';
import { isWebUrl, taskPullRequest } from '../../core/model/taskPullRequest';
import type { ProjectState } from '../../core/project/project';
import { pickTask } from '../prompts/pickTask';
import { taskIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

export interface OpenPullRequestResult {
  taskId: string;
  number: number;
  url: string;
  /** What `vscode.env.openExternal` answered (false: the editor did not open it). */
  opened: boolean;
}

/**
 * `switchyard.openPullRequest(taskId | item)`: opens the task's pull request (its latest run's, or the merged one the
 * task recorded) in the browser with `vscode.env.openExternal`. Without an argument: a QuickPick of the tasks that
 * have one. Only an http(s) URL is opened; the stored URL is data.
 */
export async function openPullRequest(deps: CommandDeps, arg?: unknown): Promise<OpenPullRequestResult> {
  const project = await deps.host.get();
  const state = await project.state();
  const taskId = taskIdFrom(arg) ?? (await pickTaskWithPullRequest(state));
  const task = state.tasks.find((t) => t.id === taskId);
  if (!task) throw new Error(`unknown task ${taskId}`);
  const pr = taskPullRequest(task, state.runs);
  if (!pr)
    throw new Error(
      `task ${taskId} has no pull request: one is opened when its run is integrated with integration.mode "pull-request"`,
    );
  if (!isWebUrl(pr.url))
    throw new Error(`task ${taskId}: pull request #${pr.number} has no http(s) URL (${JSON.stringify(pr.url)})`);
  const opened = await vscode.env.openExternal(vscode.Uri.parse(pr.url, true));
  return { taskId, number: pr.number, url: pr.url, opened };
}

async function pickTaskWithPullRequest(state: ProjectState): Promise<string> {
  const withPr = state.tasks.filter((t) => taskPullRequest(t, state.runs));
  if (!withPr.length) throw new Error('no task has a pull request: they are opened in integration.mode "pull-request"');
  return pickTask({ ...state, tasks: withPr }, 'Open the pull request of which task?');
}

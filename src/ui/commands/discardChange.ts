import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { doneRunId } from '../prompts/pickDoneRun';
import { PromptCanceled } from '../prompts/promptCanceled';
import { confirmModal, showMessage } from '../views/showMessage';
import type { CommandDeps } from './commandDeps';
import { takeChangeId } from './takeChangeArg';

export const CONFIRM_DISCARD = 'Discard Change';
export const KEEP_CHANGE = 'Keep It';

/**
 * `switchyard.discardChange(task | run | item | changes editor uri)` → the task, marked discarded. A DONE task's
 * change is dropped after review: its run branches and worktrees are deleted, and Merge refuses it afterwards. A
 * person's pick (the picker, a tree row, the diff editor's title, the DONE notification's `{runId}`) is confirmed
 * first; a bare id handed over by a program is not. From the diff editor's title, the diff editor closes: what it
 * showed is gone.
 */
export async function discardChange(deps: CommandDeps, arg?: unknown): Promise<Task> {
  const project = await deps.host.get();
  const state = await project.state();
  const given = takeChangeId(arg);
  const runId = await doneRunId(state, given, 'Discard the change of which task?');
  const run = state.runs.find((r) => r.id === runId);
  const task = state.tasks.find((t) => t.id === run?.taskId);
  const name = task ? `${task.id} · ${task.spec.title}` : runId;
  const fromEditor = arg instanceof vscode.Uri;
  if (typeof arg !== 'string') {
    const integrated = task?.integration && !task.integration.pullRequest ? task.integration.branch : undefined;
    const confirmed = await confirmModal(
      `Discard the change of ${name}?`,
      `Its branch ${run?.branch ?? runId} and its worktree are deleted; the task stays DONE, marked discarded, and ` +
        `Merge no longer takes it.${integrated ? ` Its commit on ${integrated} stays there (that branch is never merged whole).` : ''}`,
      CONFIRM_DISCARD,
      KEEP_CHANGE,
    );
    if (!confirmed) throw new PromptCanceled();
  }
  const { task: discarded, lines } = await project.branches.discard(runId);
  if (fromEditor) await closeChangesEditor(runId);
  const left = lines.filter((l) => l.includes('not deleted'));
  void showMessage(
    left.length ? 'warning' : 'info',
    `Switchyard: discarded the change of ${name}${left.length ? `; ${left.join('; ')}` : ''}.`,
  );
  void deps.snapshot.reload();
  return discarded;
}

/** Closes the run's changes editor when it is the active one (its tab carries the title openRunChanges gave it). */
async function closeChangesEditor(runId: string): Promise<void> {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (tab?.label.startsWith(`Switchyard: ${runId} on `)) await vscode.window.tabGroups.close(tab);
}

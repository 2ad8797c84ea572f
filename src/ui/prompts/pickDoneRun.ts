import * as vscode from 'vscode';
import type { ProjectState } from '../../core/project/project';
import { required } from './promptCanceled';
import { quickPickText } from './quickPickText';

/**
 * The run whose change a DONE task stands for: `id` names a run, or a task (its integrated run, else its last run);
 * without an id, a QuickPick of the DONE tasks, newest first.
 */
export async function doneRunId(state: ProjectState, id: string | undefined, placeHolder: string): Promise<string> {
  if (id !== undefined) {
    if (state.runs.some((r) => r.id === id)) return id;
    const task = state.tasks.find((t) => t.id === id);
    const runId = task?.integration?.runId ?? task?.lastRunId;
    if (runId) return runId;
    throw new Error(task ? `task ${id} has no run yet` : `unknown task or run "${id}"`);
  }
  const done = state.tasks
    .filter((t) => t.state === 'DONE' && (t.integration?.runId ?? t.lastRunId))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  if (!done.length) throw new Error('there are no DONE tasks yet');
  const runs = new Map(state.runs.map((r) => [r.id, r]));
  const picked = await vscode.window.showQuickPick(
    done.map((t) => {
      const runId = (t.integration?.runId ?? t.lastRunId) as string;
      return {
        label: quickPickText(`${t.id} · ${t.spec.title}`),
        description: quickPickText(`${runId} · ${runs.get(runId)?.branch ?? ''}`),
        runId,
      };
    }),
    { placeHolder, matchOnDescription: true, ignoreFocusOut: true },
  );
  return required(picked).runId;
}

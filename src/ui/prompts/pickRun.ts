import * as vscode from 'vscode';
import type { ProjectState } from '../../core/project/project';
import { runDuration } from '../views/formatDuration';
import { required } from './promptCanceled';
import { quickPickText } from './quickPickText';

interface RunPick extends vscode.QuickPickItem {
  runId: string;
}

/** A QuickPick of the finished runs (with `running`, every run), newest first. */
export async function pickRun(state: ProjectState, placeHolder: string, running = false): Promise<string> {
  const runs = state.runs
    .filter((r) => running || r.state !== 'RUNNING')
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  if (runs.length === 0) throw new Error(running ? 'there are no runs yet' : 'there are no finished runs yet');
  const titles = new Map(state.tasks.map((t) => [t.id, t.spec.title]));
  const items: RunPick[] = runs.map((r) => ({
    label: r.id,
    description: quickPickText(
      `${titles.get(r.taskId) ?? r.taskId} · ${r.lane} · attempt ${r.attempt} · ${runDuration(r)} · ${r.state}`,
    ),
    detail: r.failureReason && quickPickText(r.failureReason),
    runId: r.id,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder,
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  return required(picked).runId;
}

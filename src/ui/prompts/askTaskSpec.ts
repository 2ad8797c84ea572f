import * as vscode from 'vscode';
import type { LaneRegistry } from '../../core/lanes/laneRegistry';
import type { TaskSpecInput } from '../../core/model/task';
import { required } from './promptCanceled';

interface LaneChoice extends vscode.QuickPickItem {
  laneId?: string;
}

/** Asks for a new task: title, spec (may be empty), then lane (or the project default). */
export async function askTaskSpec(registry: LaneRegistry, defaultLane: string): Promise<TaskSpecInput> {
  const title = required(
    await vscode.window.showInputBox({
      title: 'Switchyard: New Task (1/3)',
      prompt: 'Task title',
      placeHolder: 'e.g. Add input validation to the signup form',
      ignoreFocusOut: true,
      validateInput: (v) =>
        v.trim() ? (v.trim().length > 200 ? 'at most 200 characters' : undefined) : 'a task needs a title',
    }),
  ).trim();
  const spec = required(
    await vscode.window.showInputBox({
      title: 'Switchyard: New Task (2/3)',
      prompt: 'What should the agent do? (optional; the spec the lane receives)',
      ignoreFocusOut: true,
    }),
  );
  const choices: LaneChoice[] = [
    { label: 'Project default', description: defaultLane },
    ...registry
      .list()
      .map(({ manifest }) => ({ label: manifest.displayName, description: manifest.id, laneId: manifest.id })),
  ];
  const lane = required(
    await vscode.window.showQuickPick(choices, {
      title: 'Switchyard: New Task (3/3)',
      placeHolder: 'Lane for this task',
      ignoreFocusOut: true,
    }),
  ).laneId;
  return lane ? { title, spec, lane } : { title, spec };
}

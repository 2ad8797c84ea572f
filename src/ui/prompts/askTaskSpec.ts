import * as vscode from 'vscode';
import { plainLine } from '../../core/text/plainText';
import type { LaneSource } from './pickLane';
import type { TaskSpecInput } from '../../core/model/task';
import { required } from './promptCanceled';

interface LaneChoice extends vscode.QuickPickItem {
  laneId?: string;
}

/** Asks for a new task: title, spec (may be empty), then lane (or the project default). */
export async function askTaskSpec(lanes: LaneSource, defaultLane: string): Promise<TaskSpecInput> {
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
  // Ready lanes first; an unready one says why (pick it anyway, or fix it with the lane pickers' Configure…).
  const statuses = await lanes.statuses();
  const ordered = [...statuses.filter((s) => s.readiness.ready), ...statuses.filter((s) => !s.readiness.ready)];
  const choices: LaneChoice[] = [
    { label: 'Project default', description: defaultLane },
    ...ordered.map(({ manifest, readiness }) => ({
      label: manifest.displayName,
      description: readiness.ready ? manifest.id : `${manifest.id} · not ready`,
      ...(readiness.ready ? {} : { detail: `$(warning) ${plainLine(readiness.reason)}` }),
      laneId: manifest.id,
    })),
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

import * as vscode from 'vscode';
import { TASK_STATES, type TaskState } from '../../core/model/taskStates';
import { required } from '../prompts/promptCanceled';
import { quickPickText } from '../prompts/quickPickText';
import { TaskFilterSchema, filterDescription, isFiltering, type TaskFilter } from '../views/taskFilter';
import { describeArg, isEditorOptions } from './commandArgs';
import type { CommandDeps } from './commandDeps';

interface FilterPick extends vscode.QuickPickItem {
  state?: TaskState;
  lane?: string;
}

/**
 * `switchyard.filterTasks(filter?)` → the filter now in force: the Tasks view shows only the tasks in the picked
 * states and lanes whose id, title or spec contains the text. Without an argument it asks (states and lanes, then the
 * text), starting from the current filter; `{states?, lanes?, text?}` sets it directly. Kept per workspace.
 */
export async function filterTasks(deps: CommandDeps, arg?: unknown): Promise<TaskFilter> {
  const filter = arg === undefined || arg === null || isEditorOptions(arg) ? await askFilter(deps) : given(arg);
  await deps.filter.set(filter);
  vscode.window.setStatusBarMessage(`Switchyard: ${filterDescription(filter) ?? 'no filter'}`, 4_000);
  return filter;
}

/** `switchyard.clearTaskFilter()`: the Tasks view shows every task again. */
export async function clearTaskFilter(deps: CommandDeps): Promise<void> {
  await deps.filter.clear();
}

function given(arg: unknown): TaskFilter {
  const parsed = TaskFilterSchema.safeParse(arg);
  if (!parsed.success)
    throw new Error(
      `Filter Tasks takes {states?, lanes?, text?} (states among ${TASK_STATES.join(', ')}), got ${describeArg(arg)}`,
    );
  return { ...parsed.data, text: parsed.data.text.trim() };
}

async function askFilter(deps: CommandDeps): Promise<TaskFilter> {
  const state = await deps.snapshot.current();
  const current = deps.filter.current;
  const tasks = state?.tasks ?? [];
  const laneOf = (lane: string | undefined): string => lane ?? state?.settings.defaultLane ?? '';
  const lanes = [...new Set([...tasks.map((t) => laneOf(t.spec.lane)), ...current.lanes])].filter(Boolean).sort();
  const items: FilterPick[] = [
    { label: 'States', kind: vscode.QuickPickItemKind.Separator },
    ...TASK_STATES.map((s) => ({
      label: s,
      description: `${tasks.filter((t) => t.state === s).length} task(s)`,
      picked: current.states.includes(s),
      state: s,
    })),
    { label: 'Lanes', kind: vscode.QuickPickItemKind.Separator },
    ...lanes.map((lane) => ({
      label: quickPickText(lane),
      description: `lane, ${tasks.filter((t) => laneOf(t.spec.lane) === lane).length} task(s)`,
      picked: current.lanes.includes(lane),
      lane,
    })),
  ];
  const picked = required(
    await vscode.window.showQuickPick(items, {
      title: 'Filter Tasks (1/2): states and lanes',
      placeHolder: 'Show the tasks in these states and lanes (none picked: any)',
      canPickMany: true,
      ignoreFocusOut: true,
    }),
  );
  const text = required(
    await vscode.window.showInputBox({
      title: 'Filter Tasks (2/2): text',
      prompt: 'Show the tasks whose id, title or spec contains this text (empty: any text)',
      value: current.text,
      ignoreFocusOut: true,
    }),
  );
  const filter: TaskFilter = {
    states: picked.flatMap((p) => (p.state ? [p.state] : [])),
    lanes: picked.flatMap((p) => (p.lane !== undefined ? [p.lane] : [])),
    text: text.trim(),
  };
  if (!isFiltering(filter)) vscode.window.setStatusBarMessage('Switchyard: nothing picked, every task shows', 4_000);
  return filter;
}

import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import type { TaskState } from '../../core/model/taskStates';
import type { ProjectState } from '../../core/project/project';
import { required } from './promptCanceled';
import { quickPickText } from './quickPickText';

interface TaskPick extends vscode.QuickPickItem {
  taskId: string;
}

/**
 * A QuickPick of the tasks in `states` (all tasks when omitted); none to pick is an error saying why. `inStateOrder`:
 * listed in the order of `states` (the first pre-selected), else in the order they were added.
 */
export async function pickTask(
  state: ProjectState,
  placeHolder: string,
  states?: readonly TaskState[],
  inStateOrder = false,
): Promise<string> {
  const tasks = state.tasks.filter((t) => !states || states.includes(t.state));
  if (inStateOrder && states) tasks.sort((a, b) => states.indexOf(a.state) - states.indexOf(b.state));
  if (tasks.length === 0) {
    throw new Error(
      states
        ? `there are no ${states.join(' or ')} tasks`
        : 'there are no tasks yet: create one with "Switchyard: New Task"',
    );
  }
  const items: TaskPick[] = tasks.map((t: Task) => ({
    label: quickPickText(`${t.id} · ${t.spec.title}`),
    description: quickPickText(`${t.spec.lane ?? state.settings.defaultLane} · ${t.state}`),
    detail: t.failureReason && quickPickText(t.failureReason),
    taskId: t.id,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder,
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  return required(picked).taskId;
}

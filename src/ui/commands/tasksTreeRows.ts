import * as vscode from 'vscode';
import { TasksTreeProvider } from '../views/tasksTreeProvider';
import type { CommandDeps } from './commandDeps';

export interface TasksTreeRow {
  /** Depth: 0 for the top rows (Pipeline, task states), 1 for tasks (and pipeline details), 2 for runs. */
  level: number;
  label: string;
  description?: string;
}

export interface TasksTreeView {
  /** The message above the tree (why the project could not be opened), if any. */
  message?: string;
  /** The view's description (the filter in force), if any. */
  description?: string;
  rows: TasksTreeRow[];
  /** The backend the views read from (as the status bar's tooltip shows it), if the project is open. */
  backend?: { kind: string; description: string };
}

/**
 * `switchyard.tasksTreeRows()` → the Tasks tree as it renders now, fully
 * expanded, the message above it and the backend: for tests and automation
 * (hidden from the palette). It reads what the views last read, never the
 * store, so it shows whether a change reached this window.
 */
export async function tasksTreeRows(deps: CommandDeps): Promise<TasksTreeView> {
  const provider = new TasksTreeProvider(deps.snapshot, deps.archived, deps.filter);
  try {
    const rows: TasksTreeRow[] = [];
    const walk = async (node: Parameters<TasksTreeProvider['getChildren']>[0], level: number): Promise<void> => {
      for (const child of await provider.getChildren(node)) {
        const item = provider.getTreeItem(child);
        const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
        rows.push({ level, label, ...(typeof item.description === 'string' ? { description: item.description } : {}) });
        if (item.collapsibleState !== vscode.TreeItemCollapsibleState.None) await walk(child, level + 1);
      }
    };
    await walk(undefined, 0);
    const message = provider.message();
    const description = provider.description();
    const backend = deps.snapshot.backend;
    return {
      ...(message !== undefined ? { message } : {}),
      ...(description !== undefined ? { description } : {}),
      rows,
      ...(backend ? { backend: { ...backend } } : {}),
    };
  } finally {
    provider.dispose();
  }
}

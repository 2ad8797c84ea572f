import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import { showMessage } from '../views/showMessage';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.clearFinished()` → how many tasks left the tree: the finished tasks (DONE, FAILED, CANCELED) leave the
 * Tasks tree; they stay in the history, and Show Archived Tasks brings them back.
 */
export async function clearFinished(deps: CommandDeps): Promise<number> {
  const state = await deps.snapshot.current();
  const cleared = await deps.archived.clearFinished(state?.tasks ?? []);
  if (!cleared) {
    vscode.window.setStatusBarMessage('Switchyard: no finished tasks to clear', 4_000);
    return 0;
  }
  void showMessage(
    'info',
    `Switchyard: ${cleared} finished task(s) archived from the Tasks view; they stay in the history (the queue panel, switchyard status).`,
    'Show Archived Tasks',
  ).then((picked) => (picked ? vscode.commands.executeCommand(COMMANDS.showArchived) : undefined));
  return cleared;
}

/** `switchyard.showArchived()` / `switchyard.hideArchived()`: the archived finished tasks in the tree, or not. */
export async function showArchived(deps: CommandDeps, showing: boolean): Promise<void> {
  await deps.archived.show(showing);
}

import * as vscode from 'vscode';
import type { CommandDeps } from './commandDeps';

/** `switchyard.cleanWorktrees()` → the removed worktree paths. Running runs keep theirs; branches and diffs stay. */
export async function cleanWorktrees(deps: CommandDeps): Promise<string[]> {
  const project = await deps.host.get();
  const removed = await project.cleanWorktrees();
  void vscode.window.showInformationMessage(
    removed.length ? `Switchyard: removed ${removed.length} worktree(s); their branches are kept.` : 'Switchyard: no worktrees to remove.',
  );
  return removed;
}

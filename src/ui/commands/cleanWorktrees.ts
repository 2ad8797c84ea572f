import type { CommandDeps } from './commandDeps';
import { showMessage } from '../views/showMessage';

/** `switchyard.cleanWorktrees()` → the removed worktree paths. Running runs keep theirs; branches and diffs stay. */
export async function cleanWorktrees(deps: CommandDeps): Promise<string[]> {
  const project = await deps.host.get();
  const removed = await project.worktrees.clean();
  void showMessage(
    'info',
    removed.length
      ? `Switchyard: removed ${removed.length} worktree(s); their branches are kept.`
      : 'Switchyard: no worktrees to remove.',
  );
  return removed;
}

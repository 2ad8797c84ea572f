import { join } from 'node:path';
import { SwitchyardError } from '../errors';
import { withFileLock } from '../store/fileLock';
import { ensureStateDir } from '../store/stateDir';

/**
 * git operations on one repository that take its locks (refs, worktree admin) run one at a time in this process, and
 * across processes: several workers on one repository adding, removing and pruning worktrees at once race in git's
 * worktree admin folder (`git worktree prune` in one can remove an entry another is still creating). Every such
 * change holds `.switchyard/worktrees.lock`.
 */
export async function withWorktreeLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const dir = await ensureStateDir(root, 'worktrees');
  return withFileLock(
    join(dir, '..', 'worktrees.lock'),
    {
      target: dir,
      staleMs: 30_000,
      waitMs: 40_000,
      lockError: (error) =>
        new SwitchyardError('store-locked', `could not lock the worktrees of ${root}: ${error.message}`, {
          cause: error,
        }),
    },
    fn,
  );
}

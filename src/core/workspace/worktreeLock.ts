import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { SwitchyardError } from '../errors';
import { ensureStateDir } from '../store/stateDir';

/** git operations on one repository that take its locks (refs, worktree admin) run one at a time in this process… */
const repoQueues = new Map<string, Promise<unknown>>();

/**
 * …and across processes: several workers on one repository adding,
 * removing and pruning worktrees at once race in git's worktree admin
 * folder (`git worktree prune` in one can remove an entry another is still
 * creating). Every such change holds `.switchyard/worktrees.lock`.
 */
export function withWorktreeLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const locked = async (): Promise<T> => {
    const dir = await ensureStateDir(root, 'worktrees');
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(dir, {
        lockfilePath: join(dir, '..', 'worktrees.lock'),
        realpath: false,
        stale: 30_000,
        retries: { retries: 400, minTimeout: 5, maxTimeout: 100, factor: 1.5 },
      });
    } catch (error) {
      throw new SwitchyardError(
        'store-locked',
        `could not lock the worktrees of ${root}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  };
  const next = (repoQueues.get(root) ?? Promise.resolve()).then(locked, locked);
  repoQueues.set(
    root,
    next.catch(() => undefined),
  );
  return next;
}

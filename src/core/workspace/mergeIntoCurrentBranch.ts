import { SwitchyardError } from '../errors';
import { git, gitOutput, gitSaid } from '../git/gitExec';
import { currentBranch, workingTreeChanges } from '../git/workingTreeChanges';
import { firstLine } from './gitRepo';

export interface MergeOutcome {
  /** The branch the change was merged into (the one checked out). */
  into: string;
  /** The merge commit (or the commit HEAD was fast-forwarded to); HEAD unchanged when `upToDate`. */
  commit: string;
  /** The branch's change was already in the checked-out branch: nothing was done. */
  upToDate: boolean;
}

/**
 * Merges `branch` into the branch checked out in `root` (a merge commit, `--no-ff`). Refuses, changing nothing, when
 * HEAD is detached, is that branch, or tracked files have uncommitted changes. A conflict is never left behind: the
 * merge is aborted, the working tree and HEAD are as before, and the error names the conflicting files.
 */
export async function mergeIntoCurrentBranch(root: string, branch: string, message?: string): Promise<MergeOutcome> {
  const into = await currentBranch(root);
  if (!into) {
    throw new SwitchyardError(
      'invalid-input',
      `HEAD is detached in ${root}: check out a branch to merge ${branch} into`,
    );
  }
  if (into === branch) throw new SwitchyardError('invalid-input', `${branch} is the branch checked out already`);
  await refuseDirtyTree(root, `merge ${branch} into ${into}`);
  const before = (await gitOutput(root, ['rev-parse', 'HEAD'])).trim();
  if ((await git(root, ['merge-base', '--is-ancestor', branch, 'HEAD'], [0, 1])).code === 0) {
    return { into, commit: before, upToDate: true };
  }
  const args = ['merge', '--no-ff', '--no-edit', ...(message ? ['-m', message] : []), branch];
  const merged = await git(root, args).catch((error: unknown) => error);
  if (merged instanceof Error) {
    const conflicted = await conflictedFiles(root);
    const inMerge = (await git(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD'], [0, 1])).code === 0;
    if (inMerge) await git(root, ['merge', '--abort']);
    if (conflicted.length) {
      throw new SwitchyardError(
        'merge-conflict',
        `${branch} conflicts with ${into} in ${conflicted.join(', ')}: the merge was aborted and nothing changed. ` +
          `Check out ${branch} or merge it yourself to resolve the conflict.`,
        { cause: merged },
      );
    }
    throw new SwitchyardError(
      'git-failed',
      `merging ${branch} into ${into} failed, nothing changed: ${firstLine(gitSaid(merged))}`,
      { cause: merged },
    );
  }
  return { into, commit: (await gitOutput(root, ['rev-parse', 'HEAD'])).trim(), upToDate: false };
}

/** Checks out `branch` in `root`; refuses, changing nothing, when tracked files have uncommitted changes. */
export async function checkOutBranch(root: string, branch: string): Promise<void> {
  await refuseDirtyTree(root, `check out ${branch}`);
  try {
    await gitOutput(root, ['checkout', '--quiet', branch]);
  } catch (error) {
    throw new SwitchyardError('git-failed', `could not check out ${branch}: ${firstLine(gitSaid(error))}`, {
      cause: error,
    });
  }
}

async function refuseDirtyTree(root: string, action: string): Promise<void> {
  const dirty = await workingTreeChanges(root);
  if (!dirty.length) return;
  const shown = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? ` and ${dirty.length - 5} more` : '');
  throw new SwitchyardError(
    'working-tree-dirty',
    `cannot ${action}: uncommitted changes in ${shown}. Commit or stash them first; nothing was changed.`,
  );
}

async function conflictedFiles(root: string): Promise<string[]> {
  const out = await git(root, ['diff', '--name-only', '--diff-filter=U', '-z'], [0, 1]).catch(() => ({ stdout: '' }));
  return out.stdout.split('\0').filter(Boolean);
}

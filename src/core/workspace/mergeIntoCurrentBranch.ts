import { SwitchyardError } from '../errors';
import { git, gitOutput, gitSaid } from '../git/gitExec';
import { currentBranch, workingTreeChanges } from '../git/workingTreeChanges';
import { firstLine } from './gitRepo';
import { squashRun } from './taskCommit';
import { hasIdentity } from './worktrees';

export interface MergeOutcome {
  /** The branch the change was merged into (the one checked out). */
  into: string;
  /** The task's commit on that branch; HEAD unchanged when `upToDate`. */
  commit: string;
  /** The change was already in the checked-out branch: nothing was done. */
  upToDate: boolean;
}

/** A task's change: what its run changed from `base` to `head` (all attempts), and the one commit's message. */
export interface TaskChange {
  base: string;
  head: string;
  message: string;
  /** How the change is named in messages, e.g. `t3 (switchyard/t3/2)`. */
  label: string;
}

/**
 * Takes exactly a task's change into the branch checked out in `root`, as ONE commit (its attempts squashed; the
 * message says the title, the task and the run): the change from its run's base to its head is applied on HEAD, like
 * a cherry-pick, so nothing else that sits on the run's base (another task's unreviewed work on the integration branch)
 * comes along. Refuses, changing nothing, when HEAD is detached or tracked files have uncommitted changes. A conflict
 * is never left behind: the index and the files are put back as they were (`git reset --merge`), and the error names
 * the conflicting files.
 */
export async function mergeIntoCurrentBranch(root: string, change: TaskChange): Promise<MergeOutcome> {
  const into = await currentBranch(root);
  if (!into) {
    throw new SwitchyardError(
      'invalid-input',
      `HEAD is detached in ${root}: check out a branch to merge ${change.label} into`,
    );
  }
  await refuseDirtyTree(root, `merge ${change.label} into ${into}`);
  const before = (await gitOutput(root, ['rev-parse', 'HEAD'])).trim();
  const commit = await squashRun(root, change.base, change.head, change.message);
  if ((await git(root, ['merge-base', '--is-ancestor', commit, 'HEAD'], [0, 1])).code === 0) {
    return { into, commit: before, upToDate: true };
  }
  const picked = await git(root, ['cherry-pick', '--no-commit', commit]).catch((error: unknown) => error);
  if (picked instanceof Error) {
    const conflicted = await conflictedFiles(root);
    await git(root, ['reset', '--merge']).catch(() => undefined);
    if (conflicted.length) {
      throw new SwitchyardError(
        'merge-conflict',
        `${change.label} conflicts with ${into} in ${conflicted.join(', ')}: the merge was aborted and nothing changed. Check out its branch, or merge it yourself to resolve the conflict.`,
        { cause: picked },
      );
    }
    throw new SwitchyardError(
      'git-failed',
      `merging ${change.label} into ${into} failed, nothing changed: ${firstLine(gitSaid(picked))}`,
      { cause: picked },
    );
  }
  // Nothing staged: the branch has the change already (merged by hand, or the same edit made there).
  if ((await git(root, ['diff', '--cached', '--quiet'], [0, 1])).code === 0)
    return { into, commit: before, upToDate: true };
  const identity = (await hasIdentity(root, root)) ? {} : FALLBACK_IDENTITY;
  try {
    // The squashed commit's message and author; the person merging is the committer.
    await git(root, ['commit', '--no-verify', '--quiet', '-C', commit], [0], identity);
  } catch (error) {
    await git(root, ['reset', '--merge']).catch(() => undefined);
    throw new SwitchyardError(
      'git-failed',
      `committing ${change.label} on ${into} failed, nothing changed: ${firstLine(gitSaid(error))}`,
      { cause: error },
    );
  }
  return { into, commit: (await gitOutput(root, ['rev-parse', 'HEAD'])).trim(), upToDate: false };
}

const FALLBACK_IDENTITY = { GIT_COMMITTER_NAME: 'Switchyard', GIT_COMMITTER_EMAIL: 'switchyard@localhost' };

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

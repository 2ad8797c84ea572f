import { realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { SwitchyardError } from '../errors';
import { SKIP_AUTO_MAINTENANCE } from '../git/autoMaintenance';
import { git, gitLines, gitOutput, gitSaid } from '../git/gitExec';
import { linkedGitDir, readGitFile } from '../git/gitFiles';
import { RetryPolicy, backoffDelayMs, defaultSleep } from '../retry/retryPolicy';
import { WORKTREES_DIR } from '../store/runPaths';
import { removeFolder } from './folderRemover';
import { withWorktreeLock } from './worktreeLock';

const FALLBACK_IDENTITY = ['user.name=Switchyard', 'user.email=switchyard@localhost'];
/** What `git commit` says (exit 1) when the index has nothing new. */
const NOTHING_TO_COMMIT = /^(nothing to commit|nothing added to commit|no changes added to commit)/m;

const LOCK_CONTENTION = /\.lock\b|could not lock|unable to create .*lock|cannot lock ref/i;
const LOCK_RETRIES = 6;
/** Between tries: 50 ms doubling (±20 % jitter), the retry policy's backoff. */
const LOCK_BACKOFF = RetryPolicy.parse({ initialIntervalMs: 50 });

/**
 * Creates a fresh worktree on a new branch at `base`; the user's working tree
 * is not touched. Another process holding one of git's lock files is waited
 * out with a short backoff instead of failing the run.
 */
export async function createWorktree(root: string, path: string, branch: string, base: string): Promise<void> {
  // The lock makes `.switchyard/worktrees/` first.
  await withWorktreeLock(root, async () => {
    for (let attempt = 1; ; attempt++) {
      await rm(path, { recursive: true, force: true });
      try {
        await gitOutput(root, ['worktree', 'add', '--force', '-B', branch, path, base]);
        return;
      } catch (error) {
        // All git said: the line naming the lock comes before several lines of hints.
        const said = gitSaid(error);
        if (attempt < LOCK_RETRIES && LOCK_CONTENTION.test(said)) {
          await gitOutput(root, ['worktree', 'prune']).catch(() => undefined);
          await defaultSleep(backoffDelayMs(LOCK_BACKOFF, attempt));
          continue;
        }
        throw new SwitchyardError(
          'git-failed',
          `could not create worktree ${path} on ${branch} at ${base.slice(0, 12)}: ${said}`,
          { cause: error },
        );
      }
    }
  });
}

export interface CapturedChange {
  diff: string;
  headCommit: string;
  stat: { files: number; insertions: number; deletions: number };
}

/**
 * Commits whatever the lane left in the worktree (hooks skipped; the `exclude` paths left out) and returns
 * the diff of the branch against the task's base, including commits the lane
 * made itself.
 */
export async function captureChange(
  path: string,
  base: string,
  message: string,
  exclude: readonly string[] = [],
): Promise<CapturedChange> {
  // What worktree setup put there from the main checkout and git does not ignore already (a symlinked node_modules is
  // not ignored by `node_modules/`; naming an ignored path makes `git add` fail).
  const ignored = new Set<string>();
  if (exclude.length)
    await gitLines(path, ['check-ignore', '--', ...exclude], (line) => ignored.add(line), [0, 1]).catch(() => 0);
  const left = exclude.filter((p) => !ignored.has(p)).map((p) => `:(exclude,literal)${p}`);
  await gitOutput(path, ['add', '-A', ...(left.length ? ['--', '.', ...left] : [])]);
  // No check for staged changes first: git says when there is nothing to commit (exit 1), one process fewer.
  const identity = (await hasIdentity(path)) ? [] : FALLBACK_IDENTITY.flatMap((kv) => ['-c', kv]);
  const committed = await git(
    path,
    [...identity, ...SKIP_AUTO_MAINTENANCE, 'commit', '--no-verify', '--quiet', '-m', message],
    [0, 1],
  );
  if (committed.code === 1 && !NOTHING_TO_COMMIT.test(committed.stdout)) {
    throw new SwitchyardError('git-failed', `git commit in ${path} failed: ${committed.stdout.trim()}`);
  }
  const headCommit = (await looseHead(path)) ?? (await gitOutput(path, ['rev-parse', 'HEAD'])).trim();
  // One process for both: the numstat lines, then the patch (from its first `diff --git` header line). The user's diff
  // settings that change its shape (colours, external tools, textconv, prefixes, relative paths) are overridden: the
  // guards read the change's added lines from this patch.
  const both = await gitOutput(path, [
    'diff',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-relative',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--numstat',
    '--patch',
    '--binary',
    base,
    headCommit,
    '--',
  ]);
  const patchStart = /^diff --git /m.exec(both)?.index ?? both.length;
  const numstat = both.slice(0, patchStart);
  const diff = both.slice(patchStart);
  const stat = { files: 0, insertions: 0, deletions: 0 };
  for (const line of numstat.split('\n').filter(Boolean)) {
    const [added, deleted] = line.split('\t');
    stat.files += 1;
    stat.insertions += Number(added) || 0;
    stat.deletions += Number(deleted) || 0;
  }
  return { diff, headCommit, stat };
}

/**
 * The commit a linked worktree's branch points at, read from the files git just wrote (`<gitdir>/HEAD` names the
 * branch, its loose ref holds the commit), or undefined when they are not that plain shape (a detached HEAD, a
 * packed or reftable ref): the caller asks git then.
 */
async function looseHead(path: string): Promise<string | undefined> {
  const gitDir = linkedGitDir(path);
  if (!gitDir) return undefined;
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(readGitFile(join(gitDir, 'HEAD'))?.trim() ?? '')?.[1];
  const commonRel = readGitFile(join(gitDir, 'commondir'));
  if (!ref || commonRel === undefined) return undefined;
  const sha = readGitFile(join(resolve(gitDir, commonRel.trim()), ref))?.trim() ?? '';
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha) ? sha : undefined;
}

const identityKnown = new Map<string, Promise<boolean>>();

/**
 * Whether git has a committer identity configured for this repository (asked once per repository). `path`: a run
 * worktree (`<root>/.switchyard/worktrees/<run>`), or the repository's root itself with `root`.
 */
export function hasIdentity(path: string, root = resolve(path, '..', '..', '..')): Promise<boolean> {
  const key = root;
  let known = identityKnown.get(key);
  if (!known) {
    known = gitOutput(path, ['config', 'user.email']).then(
      (v) => v.trim() !== '',
      () => false,
    );
    identityKnown.set(key, known);
  }
  return known;
}

/** Forgets worktrees whose folders are gone (run once before a queue drain). */
export async function pruneWorktrees(root: string): Promise<void> {
  await withWorktreeLock(root, () => gitOutput(root, ['worktree', 'prune'])).catch(() => undefined);
}

export interface WorktreeInfo {
  path: string;
  branch?: string;
  head?: string;
}

/** Worktrees Switchyard made in this repository. */
export async function listWorktrees(root: string): Promise<WorktreeInfo[]> {
  const out = await gitOutput(root, ['worktree', 'list', '--porcelain']);
  const ours = resolve(root, WORKTREES_DIR) + sep;
  const result: WorktreeInfo[] = [];
  for (const block of out.split('\n\n')) {
    const info: WorktreeInfo = { path: '' };
    for (const line of block.split('\n')) {
      if (line.startsWith('worktree ')) info.path = line.slice('worktree '.length);
      else if (line.startsWith('branch ')) info.branch = line.slice('branch '.length).replace(/^refs\/heads\//, '');
      else if (line.startsWith('HEAD ')) info.head = line.slice('HEAD '.length);
    }
    if (info.path && resolve(info.path).startsWith(ours)) result.push(info);
  }
  return result;
}

/** Removes a worktree folder; its branch stays, so the run's work is kept. */
export async function removeWorktree(root: string, path: string): Promise<void> {
  const inside = relative(resolve(root, WORKTREES_DIR), resolve(path));
  if (inside.startsWith('..') || inside === '') {
    throw new SwitchyardError('invalid-input', `refusing to remove ${path}: it is not a Switchyard worktree`);
  }
  await withWorktreeLock(root, async () => {
    const admin = await removableAdminDir(path);
    if (admin) {
      // What `git worktree remove --force` does, without a git process: the folder, then git's record of it.
      await removeFolder(path);
      await removeFolder(admin);
      return;
    }
    // `worktree remove` forgets the worktree itself; only a folder removed by hand leaves git a record to prune.
    await gitOutput(root, ['worktree', 'remove', '--force', path]).catch(async () => {
      await rm(path, { recursive: true, force: true });
      await gitOutput(root, ['worktree', 'prune']).catch(() => undefined);
    });
  });
}

/**
 * The folder where git keeps a linked worktree's record (`<git dir>/worktrees/<name>`: its HEAD, index, per-worktree
 * refs and config), read from the worktree's `.git` file, when it is plain to remove as `git worktree remove --force`
 * does: it is a `worktrees/` entry that points back at this worktree, and the worktree is not locked. Undefined
 * otherwise (git is asked then).
 */
async function removableAdminDir(path: string): Promise<string | undefined> {
  try {
    const gitDir = linkedGitDir(path);
    if (!gitDir) return undefined;
    const admin = resolve(path, gitDir);
    if (basename(dirname(admin)) !== 'worktrees') return undefined;
    const back = readGitFile(join(admin, 'gitdir'))?.trim();
    if (!back || (await realpath(resolve(admin, back))) !== (await realpath(join(path, '.git')))) return undefined;
    const locked = await stat(join(admin, 'locked')).then(
      () => true,
      (e: NodeJS.ErrnoException) => e.code !== 'ENOENT',
    );
    return locked ? undefined : admin;
  } catch {
    return undefined;
  }
}

/** Points `switchyard/salvage/<runId>` at `commit`, so a failed run's partial work has a name an operator can find. */
export async function markSalvage(root: string, runId: string, commit: string): Promise<string> {
  const branch = `switchyard/salvage/${runId}`;
  await gitOutput(root, ['branch', '-f', branch, commit]);
  return branch;
}

import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git } from '../../git/gitExec';
import { readGitFile } from '../../git/gitFiles';
import { moveRef, releaseRefMoves } from '../../git/refMoves';
import { repositoryDirs } from '../../git/repositoryDirs';
import { hasIdentity } from '../../workspace/worktrees';

/**
 * Git plumbing for integration that never touches a working tree or an
 * index: refs are read and moved with compare-and-swap, merges are computed
 * with `git merge-tree --write-tree` (git ≥ 2.38) and committed with
 * `git commit-tree`.
 */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Switchyard',
  GIT_AUTHOR_EMAIL: 'switchyard@localhost',
  GIT_COMMITTER_NAME: 'Switchyard',
  GIT_COMMITTER_EMAIL: 'switchyard@localhost',
};

/** The commit a branch points at, or undefined when there is no such branch. */
export async function readBranch(root: string, branch: string): Promise<string | undefined> {
  const r = await git(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], [0, 1]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** The commit a branch points at and its tree (one git process), or undefined when there is no such branch. */
export async function readBranchTip(
  root: string,
  branch: string,
): Promise<{ commit: string; tree: string } | undefined> {
  const ref = `refs/heads/${branch}`;
  const out = (await git(root, ['for-each-ref', '--format=%(objectname) %(tree) %(refname)', ref])).stdout;
  for (const line of out.split('\n')) {
    const [commit, tree, name] = line.split(' ');
    // A pattern also matches the refs below it (refs/heads/<branch>/…): only the branch itself counts.
    if (name === ref && commit && tree) return { commit, tree };
  }
  return undefined;
}

type Tip = { commit: string; tree: string };
/** Per repository and branch: the tip this process last read or moved it to (null: no such branch). */
const tips = new Map<string, Tip | null>();
/** Per repository: commits this process knows exist (it made them, or git named them as a branch's commit). */
const knownCommits = new Map<string, Set<string>>();
const MAX_KNOWN = 10_000;

function know(root: string, commit: string): void {
  let set = knownCommits.get(root);
  if (!set || set.size >= MAX_KNOWN) knownCommits.set(root, (set = new Set()));
  set.add(commit);
}

/**
 * The tip of `branch` as this process last saw it (read with one git process the first time). Not a fresh read:
 * someone else may have moved the branch since, so the caller moves it only by compare-and-swap against this value
 * and, when that fails, forgets it (`forgetBranchTip`) and reads again.
 */
export async function cachedBranchTip(root: string, branch: string): Promise<Tip | undefined> {
  const key = `${root}\0${branch}`;
  const cached = tips.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const tip = await readBranchTip(root, branch);
  tips.set(key, tip ?? null);
  if (tip) know(root, tip.commit);
  return tip;
}

/**
 * Records what a listing this process just made of `branch`'s ref found (its tip, or no such branch), when nothing
 * is remembered yet: the first `cachedBranchTip` needs no git process of its own. The same value a first read gives.
 */
export function sawBranchTip(root: string, branch: string, tip: Tip | undefined): void {
  const key = `${root}\0${branch}`;
  if (tips.has(key)) return;
  tips.set(key, tip ?? null);
  if (tip) know(root, tip.commit);
}

/** Forgets the cached tip (the branch moved under a compare-and-swap, or may have). */
export function forgetBranchTip(root: string, branch: string): void {
  tips.delete(`${root}\0${branch}`);
}

/** Records where this process just moved `branch` (or found it): its commit and tree. */
export function rememberBranchTip(root: string, branch: string, tip: Tip): void {
  tips.set(`${root}\0${branch}`, tip);
  know(root, tip.commit);
}

/**
 * The commit a branch points at, or undefined when there is no such branch: `readBranch`'s answer, read from the
 * files git keeps (the loose ref, else `packed-refs`) when that is exact, without a git process: the ref file holds a
 * commit this process already knows, or the branch is in neither file. Anything else (a symbolic ref, the reftable
 * format, a commit not seen yet, an unreadable file) asks git.
 */
export async function readBranchQuick(root: string, branch: string): Promise<string | undefined> {
  const repo = await repositoryDirs(root);
  if (repo && !repo.reftable) {
    const ref = `refs/heads/${branch}`;
    const loose = await readFile(join(repo.common, ref), 'utf8').then(
      (t) => t.trim(),
      (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : undefined),
    );
    if (loose && knownCommits.get(root)?.has(loose)) return loose;
    if (loose === null) {
      const packed = await readFile(join(repo.common, 'packed-refs'), 'utf8').then(
        (t) => t,
        (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? '' : undefined),
      );
      if (packed !== undefined) {
        const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`) && !l.startsWith('#'));
        if (!line) return undefined;
        const commit = line.slice(0, line.indexOf(' '));
        if (knownCommits.get(root)?.has(commit)) return commit;
      }
    }
  }
  const commit = await readBranch(root, branch);
  if (commit) know(root, commit);
  return commit;
}

/** The worktree (the user's or any other) that has `branch` checked out, if one does. */
export async function checkedOutIn(root: string, branch: string): Promise<string | undefined> {
  const repo = await repositoryDirs(root);
  if (!repo) return checkedOutInByGit(root, branch);
  // What `git worktree list` reads, read directly: each worktree's HEAD in the repository's git folder.
  const head = `ref: refs/heads/${branch}`;
  const read = (path: string): string | undefined => readGitFile(path)?.trim();
  if (!repo.bare && read(join(repo.common, 'HEAD')) === head) return root;
  const names = await readdir(join(repo.common, 'worktrees')).catch(() => [] as string[]);
  for (const name of names) {
    if (read(join(repo.common, 'worktrees', name, 'HEAD')) !== head) continue;
    const gitFile = read(join(repo.common, 'worktrees', name, 'gitdir'));
    return gitFile ? dirname(gitFile) : join(repo.common, 'worktrees', name);
  }
  return undefined;
}

async function checkedOutInByGit(root: string, branch: string): Promise<string | undefined> {
  const out = (await git(root, ['worktree', 'list', '--porcelain'])).stdout;
  for (const block of out.split('\n\n')) {
    const lines = block.split('\n');
    if (lines.includes(`branch refs/heads/${branch}`))
      return lines.find((l) => l.startsWith('worktree '))?.slice('worktree '.length);
  }
  return undefined;
}

export async function isAncestor(root: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await git(root, ['merge-base', '--is-ancestor', ancestor, descendant], [0, 1])).code === 0;
}

export async function treeOf(root: string, commit: string): Promise<string> {
  return (await git(root, ['rev-parse', `${commit}^{tree}`])).stdout.trim();
}

export type MergeResult = { ok: true; tree: string } | { ok: false; conflicts: string[] };

/** The merged tree of `ours` and `theirs`, or the files that conflict. */
export async function mergeTrees(root: string, ours: string, theirs: string): Promise<MergeResult> {
  const r = await git(root, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], [0, 1]);
  const [tree, ...rest] = r.stdout.split('\n');
  if (r.code === 0) return { ok: true, tree: tree!.trim() };
  return { ok: false, conflicts: [...new Set(rest.map((l) => l.trim()).filter(Boolean))] };
}

/** A commit of `tree` with `parents`; Switchyard's identity when the repository has none. */
export async function commitTree(
  root: string,
  tree: string,
  parents: readonly string[],
  message: string,
): Promise<string> {
  const identity = await hasIdentity(root, root);
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message];
  const commit = (await git(root, args, [0], identity ? {} : IDENTITY)).stdout.trim();
  know(root, commit);
  return commit;
}

/**
 * Moves `refs/heads/<branch>` to `to` only if it still points at `from` (undefined: only if it does not exist yet),
 * with git's own compare-and-swap (moveRef). False when the branch was not there (it moved meanwhile, or git failed):
 * the caller reads the branch again before it decides anything.
 */
export async function updateBranch(
  root: string,
  branch: string,
  to: string,
  from: string | undefined,
): Promise<boolean> {
  const moved = await moveRef(root, `refs/heads/${branch}`, to, from, 'switchyard: integrate');
  if (moved) know(root, to);
  return moved;
}

/** The end of a drain: the long-lived git process behind `updateBranch` exits (the next move starts one). */
export function releaseBranchUpdates(): void {
  releaseRefMoves();
}

export async function pushBranch(root: string, remote: string, branch: string): Promise<void> {
  await git(root, ['push', '--quiet', remote, `refs/heads/${branch}:refs/heads/${branch}`]);
}

/** Where pull-request mode keeps the head of the remote base it last saw (new runs after a conflict start there). */
export const PULL_REQUEST_BASE_REF = 'refs/switchyard/pull-request-base';

/** The commit any ref points at, or undefined. */
export async function readRef(root: string, ref: string): Promise<string | undefined> {
  const r = await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], [0, 1, 128]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

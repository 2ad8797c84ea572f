import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './gitExec';

export interface RepositoryDirs {
  /** The common git folder (`.git` of the main worktree, or the bare repository), absolute. */
  common: string;
  bare: boolean;
  /** Refs in the reftable format (no loose ref files to read). */
  reftable: boolean;
}

const dirsOf = new Map<string, Promise<RepositoryDirs | undefined>>();

/** What `git rev-parse` is asked for these facts; a caller asking it anyway adds them to its own question. */
export const REPOSITORY_DIRS_ARGS = ['--path-format=absolute', '--git-common-dir', '--is-bare-repository'] as const;

async function fromAnswer([common, bare]: readonly (string | undefined)[]): Promise<RepositoryDirs | undefined> {
  if (!common) return undefined;
  const reftable = await stat(join(common, 'reftable')).then(
    () => true,
    (e: NodeJS.ErrnoException) => e.code !== 'ENOENT',
  );
  return { common, bare: bare === 'true', reftable };
}

/** Keeps what a caller's own `git rev-parse … REPOSITORY_DIRS_ARGS` in `root` answered (its last two lines). */
export function rememberRepositoryDirs(root: string, answer: readonly string[]): void {
  if (!dirsOf.has(root) && answer.length === 2) dirsOf.set(root, fromAnswer(answer));
}

/**
 * The repository's common git folder, whether it is bare and whether its refs are reftable: asked of git once per
 * root and process (an answer git could not give is asked again next time).
 */
export function repositoryDirs(root: string): Promise<RepositoryDirs | undefined> {
  let known = dirsOf.get(root);
  if (!known) {
    known = git(root, ['rev-parse', ...REPOSITORY_DIRS_ARGS]).then(
      (r) => fromAnswer(r.stdout.trim().split('\n')),
      () => undefined,
    );
    const asked = known;
    void asked.then((dirs) => {
      if (!dirs && dirsOf.get(root) === asked) dirsOf.delete(root);
    });
    dirsOf.set(root, known);
  }
  return known;
}

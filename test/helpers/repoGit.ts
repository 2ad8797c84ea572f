import { dirname } from 'node:path';
import { gitOutput } from '../../src/core/git/gitExec';

/**
 * git in one folder, for tests and benchmarks: `git <args>` there through Switchyard's own git runner
 * (src/core/git/gitExec.ts), resolving to git's stdout; any exit code but 0 rejects with a `git-failed` error that
 * names the command and holds git's stderr.
 */
export type RepoGit = (...args: string[]) => Promise<string>;

export function repoGit(dir: string): RepoGit {
  return (...args) => gitOutput(dir, args);
}

/** Commits in `git`'s repository are made as `name` <`name` in lower case@localhost>. */
export async function setIdentity(git: RepoGit, name: string): Promise<void> {
  await git('config', 'user.name', name);
  await git('config', 'user.email', `${name.toLowerCase()}@localhost`);
}

/** `git init -b main` in `dir`, `name` as the identity, and every file in it committed as `message`. */
export async function initRepo(dir: string, message: string, name = 'Test'): Promise<RepoGit> {
  const git = repoGit(dir);
  await git('init', '-q', '-b', 'main');
  await setIdentity(git, name);
  await git('add', '.');
  await git('commit', '-q', '-m', message);
  return git;
}

/** `git clone <from> <to>` (`to` a new folder in an existing one), `name` as the clone's identity. */
export async function cloneRepo(from: string, to: string, name = 'Test'): Promise<RepoGit> {
  await repoGit(dirname(to))('clone', '-q', from, to);
  const git = repoGit(to);
  await setIdentity(git, name);
  return git;
}

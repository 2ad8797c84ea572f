import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// git's own small files (a worktree's `.git`, HEAD, gitdir, commondir, loose refs, hooks) are a few bytes to a few
// hundred: read synchronously, each costs microseconds, where a round trip through the thread pool costs several
// times the CPU, and a drain reads a dozen of them a run.

/** The text of one of git's small files, or undefined when it cannot be read. */
export function readGitFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The private git folder a linked worktree's `.git` file names (`gitdir: <path>`, as written, trimmed), or undefined
 * when `.git` is not such a file.
 */
export function linkedGitDir(worktree: string): string | undefined {
  const dotGit = readGitFile(join(worktree, '.git'));
  return dotGit === undefined ? undefined : /^gitdir: (.+)$/m.exec(dotGit)?.[1]?.trim();
}

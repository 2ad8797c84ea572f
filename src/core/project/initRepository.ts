import { gitOutput } from '../git/gitExec';

/**
 * Makes `dir` a git repository whose first commit holds the files already in it; `author` becomes the repository's
 * user (its later commits, Switchyard's merges included, are theirs).
 */
export async function initRepository(
  dir: string,
  author: { name: string; email: string },
  message = 'initial commit',
): Promise<void> {
  for (const args of [
    ['init'],
    ['config', 'user.name', author.name],
    ['config', 'user.email', author.email],
    ['add', '.'],
    ['commit', '-m', message],
  ]) {
    await gitOutput(dir, args);
  }
}

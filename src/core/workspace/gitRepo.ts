import { stat } from 'node:fs/promises';
import { gitOutput, gitSaid } from '../git/gitExec';
import { SwitchyardError } from '../errors';

/** The top-level folder of the git repository that contains `dir`. */
export async function resolveRepoRoot(dir: string): Promise<string> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new SwitchyardError('not-a-git-repo', `${dir} is not a folder`);
  try {
    const root = (await gitOutput(dir, ['rev-parse', '--show-toplevel'])).trim();
    if (!root) throw new Error('empty answer');
    return root;
  } catch (error) {
    throw new SwitchyardError(
      'not-a-git-repo',
      `${dir} is not inside a git repository (git said: ${firstLine(gitSaid(error))}). Run \`git init\` ` +
        `and make a first commit, or open a repository.`,
      { cause: error },
    );
  }
}

/** The commit HEAD points at; a repository without commits is an error saying so. */
export async function headCommit(root: string): Promise<string> {
  try {
    return (await gitOutput(root, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  } catch (error) {
    throw new SwitchyardError(
      'git-failed',
      `${root} has no commits yet: make a first commit so tasks have a base to start from`,
      { cause: error },
    );
  }
}

export function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

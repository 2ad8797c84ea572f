import { stat } from 'node:fs/promises';
import { gitOutput, gitSaid } from '../git/gitExec';
import { SwitchyardError } from '../errors';
import { REPOSITORY_DIRS_ARGS, rememberRepositoryDirs } from '../git/repositoryDirs';

/** The top-level folder of the git repository that contains `dir`. */
export async function resolveRepoRoot(dir: string): Promise<string> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new SwitchyardError('not-a-git-repo', `${dir} is not a folder`);
  try {
    // The repository's git folders in the same process: the drain needs them next.
    const [root, ...dirs] = (await gitOutput(dir, ['rev-parse', '--show-toplevel', ...REPOSITORY_DIRS_ARGS]))
      .trim()
      .split('\n');
    if (!root) throw new Error('empty answer');
    rememberRepositoryDirs(root, dirs);
    return root;
  } catch (error) {
    throw new SwitchyardError(
      'not-a-git-repo',
      `${dir} is not inside a git repository (git said: ${firstLine(gitSaid(error))}). Run \`git init\` and make a first commit, or open a repository.`,
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

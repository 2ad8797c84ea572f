import { git, gitOutput } from '../git/gitExec';
import { plainLine } from '../text/plainText';

/**
 * The message of the one commit that carries a task's change: its title, then which task and run it came from.
 * The title is made plain (one line, no control characters): it came from whoever wrote the task.
 */
export function taskCommitMessage(task: { id: string; spec: { title: string } }, runId: string): string {
  const title = plainLine(task.spec.title).trim() || `Switchyard task ${task.id}`;
  return `${title}\n\nSwitchyard task ${task.id}, run ${runId}`;
}

/**
 * One commit holding everything from `base` to `head` (all attempts of a task, squashed), whose parent is `base`.
 * Its author and dates are `head`'s, so the same run always squashes to the same commit (a resumed integration or a
 * second push makes no new one).
 */
export async function squashRun(root: string, base: string, head: string, message: string): Promise<string> {
  const format = ['%an', '%ae', '%aI', '%cn', '%ce', '%cI'].join('%x00');
  const shown = await gitOutput(root, ['show', '-s', `--format=${format}`, head]);
  const [an, ae, ad, cn, ce, cd] = shown.replace(/\n$/, '').split('\0');
  const env = {
    GIT_AUTHOR_NAME: an ?? 'Switchyard',
    GIT_AUTHOR_EMAIL: ae ?? 'switchyard@localhost',
    GIT_AUTHOR_DATE: ad ?? '',
    GIT_COMMITTER_NAME: cn ?? 'Switchyard',
    GIT_COMMITTER_EMAIL: ce ?? 'switchyard@localhost',
    GIT_COMMITTER_DATE: cd ?? '',
  };
  const args = ['commit-tree', `${head}^{tree}`, '-p', base, '-m', message];
  return (await git(root, args, [0], env)).stdout.trim();
}

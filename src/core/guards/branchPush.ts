import { git, isZeroSha } from '../git/gitExec';
import type { PushUpdate } from './pushRange';

/**
 * The push `git push` would make for the branch checked out in the worktree at `top`: to its upstream, or to origin
 * under the same name.
 */
export async function branchPush(top: string): Promise<{ remote: string; update: PushUpdate }> {
  const head = (await git(top, ['rev-parse', 'HEAD'])).stdout.trim();
  const branch = (await git(top, ['symbolic-ref', '-q', 'HEAD'], [0, 1])).stdout.trim() || 'HEAD';
  const short = branch.replace(/^refs\/heads\//, '');
  const remote = (await git(top, ['config', `branch.${short}.remote`], [0, 1])).stdout.trim() || 'origin';
  const merge = (await git(top, ['config', `branch.${short}.merge`], [0, 1])).stdout.trim() || branch;
  const upstream = (await git(top, ['rev-parse', '-q', '--verify', '@{upstream}'], [0, 1, 128])).stdout.trim();
  const zero = '0'.repeat(head.length);
  return {
    remote,
    update: {
      localRef: branch,
      localSha: head,
      remoteRef: merge,
      remoteSha: upstream && !isZeroSha(upstream) ? upstream : zero,
    },
  };
}

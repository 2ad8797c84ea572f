import { errorMessage } from '../../errors';
import { git, gitSaid } from '../../git/gitExec';
import { firstLine } from '../../workspace/gitRepo';
import { listWorktrees, removeWorktree } from '../../workspace/worktrees';
import type { Task } from '../../model/task';
import { openGitHub } from '../integration/githubAccess';
import { pullRequestBranch } from '../integration/pullRequestFlow';
import type { RunContext } from '../runContext';
import { sawBranchTip } from '../integration/targetBranch';

const DAY_MS = 24 * 60 * 60_000;
/** `switchyard/<task>/<attempt>` (a run's branch) and `switchyard/salvage/<task>.<attempt>` (its salvaged work). */
const RUN_BRANCH = /^switchyard\/(?!salvage\/|pr\/|integration$)([^/]+)\/\d+$/;
const SALVAGE_BRANCH = /^switchyard\/salvage\/(.+)\.\d+$/;

/** The task a Switchyard branch belongs to, or undefined for any other branch. */
export function taskOfBranch(branch: string): string | undefined {
  return RUN_BRANCH.exec(branch)?.[1] ?? SALVAGE_BRANCH.exec(branch)?.[1];
}

/** When a task's change landed (integrated, or merged by a person), for a DONE task whose branches may go. */
function landedAt(task: Task): number | undefined {
  if (task.state !== 'DONE') return undefined;
  const times = [task.integration?.at, task.merged?.at].filter((t): t is string => t !== undefined).map(Date.parse);
  const valid = times.filter(Number.isFinite);
  return valid.length ? Math.max(...valid) : undefined;
}

/**
 * Deletes the local branches (`switchyard/<task>/<n>`, `switchyard/salvage/<run>`) of DONE tasks whose change was
 * integrated or merged `keepDays` ago or longer (`worktree.keepBranchesDays`; 0: at once), with the worktrees still on
 * them (a failed attempt's), and, in pull-request mode,
 * the task's pull-request branch on the remote. The branches name the tasks to look up, so a drain reads no history
 * when there is nothing to prune. A failure is a line of the result, and the next prune tries again. Returns one line
 * per deletion or failure.
 */
export async function pruneTaskBranches(ctx: RunContext, keepDays: number, now = Date.now()): Promise<string[]> {
  const settings = (await ctx.store.readWorking()).settings;
  // The same git process reads the target's tip for the drain's first integration (sawBranchTip).
  const targetRef = `refs/heads/${settings.integration.targetBranch}`;
  const format = '--format=%(objectname) %(tree) %(refname)';
  const refs = await git(ctx.root, ['for-each-ref', format, 'refs/heads/switchyard/', targetRef]);
  const byTask = new Map<string, string[]>();
  let targetTip: { commit: string; tree: string } | undefined;
  for (const line of refs.stdout.split('\n').filter(Boolean)) {
    const [commit, tree, ref = ''] = line.split(' ');
    if (ref === targetRef && commit && tree) targetTip = { commit, tree };
    const task = ref.startsWith('refs/heads/') ? taskOfBranch(ref.slice('refs/heads/'.length)) : undefined;
    if (task) byTask.set(task, [...(byTask.get(task) ?? []), ref.slice('refs/heads/'.length)]);
  }
  sawBranchTip(ctx.root, settings.integration.targetBranch, targetTip);
  if (!byTask.size) return [];
  const tasks = await ctx.store.findFinished(byTask.keys());
  const lines: string[] = [];
  // A failed attempt's worktree (kept `worktree.keepFailedDays`) holds its branch: it goes with the branch.
  const worktrees = new Map((await listWorktrees(ctx.root)).map((w) => [w.branch, w.path]));
  for (const [id, branches] of byTask) {
    const task = tasks.get(id);
    const landed = task && landedAt(task);
    if (!task || landed === undefined || now - landed < keepDays * DAY_MS) continue;
    for (const branch of branches) {
      const deleted = await deleteBranch(ctx.root, branch, worktrees.get(branch));
      lines.push(
        deleted instanceof Error
          ? `branch ${branch} of ${id} not deleted (the next prune tries again): ${firstLine(gitSaid(deleted))}`
          : `branch ${branch} of ${id} deleted: ${id} landed ${new Date(landed).toISOString()}`,
      );
    }
    if (task.integration?.pullRequest && settings.integration.mode === 'pull-request')
      lines.push(await deleteRemoteBranch(ctx, settings, pullRequestBranch(id)));
  }
  return lines;
}

/**
 * Deletes the local branches of one task (`switchyard/<task>/<n>`, `switchyard/salvage/<task>.<n>`) now, with the
 * worktrees on them: a discarded change. Returns one line per deletion or failure (a branch checked out in the
 * repository stays, and its line says why).
 */
export async function deleteTaskBranches(root: string, taskId: string): Promise<string[]> {
  const refs = await git(root, ['for-each-ref', '--format=%(refname)', 'refs/heads/switchyard/']);
  const branches = refs.stdout
    .split('\n')
    .map((ref) => ref.replace(/^refs\/heads\//, ''))
    .filter((branch) => branch && taskOfBranch(branch) === taskId);
  if (!branches.length) return [];
  const worktrees = new Map((await listWorktrees(root)).map((w) => [w.branch, w.path]));
  const lines: string[] = [];
  for (const branch of branches) {
    const deleted = await deleteBranch(root, branch, worktrees.get(branch));
    lines.push(
      deleted instanceof Error
        ? `branch ${branch} of ${taskId} not deleted: ${firstLine(gitSaid(deleted))}`
        : `branch ${branch} of ${taskId} deleted`,
    );
  }
  return lines;
}

/** Removes the worktree on `branch` (if any), then the branch; the error, if either failed. */
function deleteBranch(root: string, branch: string, worktree: string | undefined): Promise<unknown> {
  return (worktree ? removeWorktree(root, worktree) : Promise.resolve())
    .then(() => git(root, ['branch', '--quiet', '-D', branch]))
    .then(() => undefined)
    .catch((e: unknown) => e);
}

async function deleteRemoteBranch(
  ctx: RunContext,
  settings: Parameters<typeof openGitHub>[1],
  branch: string,
): Promise<string> {
  const { remote } = settings.integration;
  try {
    const gh = await openGitHub(ctx, settings, () => undefined);
    const args = ['push', '--quiet', '--no-verify', remote, '--delete', `refs/heads/${branch}`];
    await git(ctx.root, args, [0], await gh.gitEnv());
    return `${branch} deleted on ${remote}: its pull request was merged`;
  } catch (error) {
    const said = gitSaid(error);
    // Already gone (GitHub's "delete branch on merge", a person): nothing to do.
    if (/remote ref does not exist/.test(said)) return `${branch} on ${remote}: already gone`;
    return `${branch} on ${remote} not deleted: ${firstLine(said) || errorMessage(error)}`;
  }
}

import { SwitchyardError } from '../errors';
import { deleteTaskBranches, pruneTaskBranches } from '../engine/drain/branchRetention';
import { type ClosedPullRequest, closeTaskPullRequest } from '../engine/integration/closeTaskPullRequest';
import { gitOutput } from '../git/gitExec';
import { currentBranch } from '../git/workingTreeChanges';
import type { Task } from '../model/task';
import { checkOutBranch, type MergeOutcome, mergeIntoCurrentBranch } from '../workspace/mergeIntoCurrentBranch';
import { taskCommitMessage } from '../workspace/taskCommit';
import { changeOf } from './findRun';
import type { ProjectCore } from './projectCore';

export type { ClosedPullRequest } from '../engine/integration/closeTaskPullRequest';
export type { MergeOutcome } from '../workspace/mergeIntoCurrentBranch';

/** `project.branches`: a run's change taken into the user's branch, discarded or checked out; branches pruned. */
export class BranchService {
  constructor(private readonly core: ProjectCore) {}

  /**
   * Takes a run's change (a DONE task's, by task or run id) into the branch checked out in the repository as one
   * commit, and records on the task where it went. Refuses on uncommitted changes or a detached HEAD; a conflict
   * changes nothing.
   */
  async merge(id: string): Promise<MergeOutcome> {
    const { root, store } = this.core;
    const { task, run } = await changeOf(store, id);
    if (task.state !== 'DONE' || !run.headCommit) {
      throw new SwitchyardError(
        'invalid-input',
        `task ${task.id} is ${task.state}: only a DONE task's change is merged (\`switchyard checkout ${task.id}\` checks out its last run to look at it)`,
      );
    }
    if (task.discarded) {
      throw new SwitchyardError(
        'invalid-input',
        `task ${task.id}'s change was discarded (${task.discarded.at}): it is not merged; Retry Task runs the task again`,
      );
    }
    const outcome = await mergeIntoCurrentBranch(root, {
      base: run.baseCommit,
      head: run.headCommit,
      message: taskCommitMessage(task, run.id),
      label: `${task.id} (${run.branch})`,
    });
    if (outcome.upToDate) return outcome;
    const merged = { branch: outcome.into, commit: outcome.commit, runId: run.id, at: new Date().toISOString() };
    return this.core.command(async () => {
      await store.update((state) => {
        const t = state.tasks.find((x) => x.id === task.id);
        if (t) t.merged = merged;
      });
      return outcome;
    });
  }

  /**
   * Discards a DONE task's change (by task or run id) after review: the task is marked discarded (it stays DONE, and
   * Merge refuses it), then its run branches are deleted with their worktrees. A change already merged by a person, or
   * one a pull request took into its base, is refused: it has landed. A commit the change already has on the
   * integration branch stays there (that branch is never merged whole). Returns the task and one line per branch.
   */
  async discard(id: string): Promise<{ task: Task; lines: string[] }> {
    const { root, store, ctx } = this.core;
    const { task, run } = await changeOf(store, id);
    if (task.state !== 'DONE') {
      throw new SwitchyardError(
        'invalid-input',
        `task ${task.id} is ${task.state}: only a DONE task's change is discarded (Cancel Task stops one in progress)`,
      );
    }
    const landed = task.merged
      ? `it was merged into ${task.merged.branch} (${task.merged.commit.slice(0, 12)}): revert that commit instead`
      : task.integration?.pullRequest
        ? `its pull request #${task.integration.pullRequest.number} was merged into ${task.integration.branch}`
        : undefined;
    if (landed) throw new SwitchyardError('invalid-input', `task ${task.id}'s change is not discarded: ${landed}`);
    const discarded = task.discarded ?? { runId: run.id, at: new Date().toISOString() };
    const stored = await this.core.command(async () => {
      const t = await store.update((state) => {
        const found = state.tasks.find((x) => x.id === task.id);
        if (!found) throw new SwitchyardError('invalid-input', `unknown task "${task.id}"`);
        found.discarded = discarded;
        return found;
      });
      ctx.trace.append({
        type: 'decision',
        kind: 'discard',
        task: task.id,
        message: `task ${task.id}'s change (run ${discarded.runId}) discarded by the user: its run branches are deleted`,
      });
      return t;
    });
    return { task: stored, lines: await deleteTaskBranches(root, task.id) };
  }

  /** Checks out the branch of a run (a task's last run, by task or run id); refuses on uncommitted changes. */
  async checkOut(id: string): Promise<string> {
    const { run } = await changeOf(this.core.store, id);
    await checkOutBranch(this.core.root, run.branch);
    return run.branch;
  }

  /** Deletes now the branches `worktree.keepBranchesDays` would delete later (DONE tasks integrated or merged). */
  prune(): Promise<string[]> {
    return pruneTaskBranches(this.core.ctx, 0);
  }

  /** `branch`'s first-parent history, one line per commit, newest first (`git log --oneline --first-parent`). */
  log(branch: string): Promise<string> {
    return gitOutput(this.core.root, ['log', '--oneline', '--first-parent', branch]);
  }

  /** The branch checked out in the project's folder (undefined: a detached HEAD). */
  current(): Promise<string | undefined> {
    return currentBranch(this.core.root);
  }

  /** Closes the task's open pull request on GitHub without merging it (a FAILED task's); its branch stays. */
  closePullRequest(taskId: string): Promise<ClosedPullRequest> {
    return this.core.command(() => closeTaskPullRequest(this.core.ctx, taskId));
  }
}

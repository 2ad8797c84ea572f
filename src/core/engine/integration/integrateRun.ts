import { errorMessage } from '../../errors';
import type { FailureCode } from '../../model/failureCodes';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import type { IntegrationSettings } from '../../store/orchestratorSettings';
import { taskCommitMessage } from '../../workspace/taskCommit';
import { findRun } from '../../transitions/finishRun';
import { staleBecause } from '../../transitions/inputHash';
import type { RunContext } from '../runContext';
import { findTask } from '../../transitions/setTaskState';
import {
  cachedBranchTip,
  checkedOutIn,
  commitTree,
  forgetBranchTip,
  mergeTrees,
  pushBranch,
  readBranchTip,
  rememberBranchTip,
  treeOf,
  updateBranch,
} from './targetBranch';

export type IntegrateOutcome =
  | { ok: true; commit: string }
  | { ok: false; code: FailureCode; reason: string; feedback?: string }
  | { ok: 'stale' };

const ROUNDS = 5;

/**
 * Merges the run's commit into the project's target branch without a
 * checkout: the merge is computed with `git merge-tree`, committed with
 * `git commit-tree` as ONE commit on the target (its only parent), so the
 * task's attempts arrive squashed: no failed attempt's commit enters the
 * target's history (`git bisect` steps over whole tasks). Its message is the
 * task's title, then the task and run ids (taskCommitMessage),
 * and the branch moves by compare-and-swap in three steps (moveTarget): a
 * transaction records the move as the run's intent while the task is still
 * INTEGRATING this run (a cancel after it is refused, so nothing moves after
 * a cancel), git moves the branch, a second transaction confirms the move (or
 * clears the intent when the branch had moved). A process stopped between
 * them leaves the intent, which recovery resolves from where the branch is.
 * The merge starts from the tip this process last saw (no git process to
 * read it); the compare-and-swap fails when someone else moved the branch,
 * and the merge is made again on the tip read afresh. A conflict or an empty
 * merge, which no compare-and-swap checks, reads the tip afresh first.
 * A target branch checked out in any worktree is refused. A conflict sends
 * the task back for a new attempt on the target's head, with the files named.
 * The first integration creates the branch at the task's base commit.
 */
export async function integrateRun(
  ctx: RunContext,
  task: Task,
  run: Run,
  settings: IntegrationSettings,
  head: string,
  record: (message: string) => void,
): Promise<IntegrateOutcome> {
  const target = settings.targetBranch;
  const holder = await checkedOutIn(ctx.root, target);
  if (holder) {
    return {
      ok: false,
      code: 'integration-refused',
      reason: `the target branch ${target} is checked out in ${holder}; Switchyard never moves a checked-out branch: check out another branch there, or set integration.targetBranch to one nobody has checked out`,
    };
  }
  for (let round = 1; round <= ROUNDS; round++) {
    // The tip this process last saw (no git process): when someone else moved the branch since, the
    // compare-and-swap below fails, and the next round reads it afresh.
    const tip = await cachedBranchTip(ctx.root, target);
    const current = tip?.commit;
    const parent = current ?? task.baseCommit;
    let commit = parent;
    // No ancestry check first: when the run is in the target already, the merged tree is the target's own, and
    // nothing is committed (one git process fewer per integration).
    const merged = await mergeTrees(ctx.root, parent, head);
    if (!merged.ok && (await movedSince(ctx.root, target, current))) continue;
    if (!merged.ok) {
      const files = merged.conflicts.join(', ') || '(unknown files)';
      return {
        ok: false,
        code: 'merge-conflict',
        reason: `merging ${run.branch} into ${target} conflicts in ${files}`,
        feedback: `Merging the previous attempt (${run.id}) into ${target} conflicted in: ${files}. This attempt starts from ${target}'s current head, which has the work it conflicted with: make the change again on top of it.`,
      };
    }
    if (merged.tree !== (tip?.tree ?? (await treeOf(ctx.root, parent)))) {
      commit = await commitTree(ctx.root, merged.tree, [parent], taskCommitMessage(task, run.id));
    }
    // Nothing to move, so no compare-and-swap checks the remembered tip: read it now.
    if (commit === current && (await movedSince(ctx.root, target, current))) continue;
    const moved = await moveTarget(ctx, task, run, target, current, commit);
    if (moved === 'stale') return { ok: 'stale' };
    if (moved === 'ok' && current !== commit) rememberBranchTip(ctx.root, target, { commit, tree: merged.tree });
    if (moved === 'moved') {
      forgetBranchTip(ctx.root, target);
      record(`${target} moved while ${run.id} was being merged; merging again (${round}/${ROUNDS})`);
      continue;
    }
    record(
      commit === current
        ? `nothing new to merge: ${target} already has ${run.branch}`
        : `merged ${run.branch} into ${target}${current ? '' : ` (created at ${parent.slice(0, 12)})`} as ${commit.slice(0, 12)}`,
    );
    if (settings.mode === 'push') await push(ctx, run, settings.remote, target, record);
    return { ok: true, commit };
  }
  return {
    ok: false,
    code: 'integration-error',
    reason: `${target} kept moving while ${run.branch} was being merged (${ROUNDS} tries)`,
  };
}

/**
 * Whether `target` is no longer at `seen` (the tip remembered, which a conflict or an empty merge was computed on):
 * read afresh, and the remembered tip forgotten when it moved, so the next round merges on the new one.
 */
async function movedSince(root: string, target: string, seen: string | undefined): Promise<boolean> {
  const now = await readBranchTip(root, target);
  if (now?.commit === seen) return false;
  forgetBranchTip(root, target);
  return true;
}

/**
 * Push mode: the target branch goes to the remote (through the pre-push guard). A failed push is recorded, never undone
 * locally; the next integration pushes again.
 */
async function push(
  ctx: RunContext,
  run: Run,
  remote: string,
  target: string,
  record: (message: string) => void,
): Promise<void> {
  let pushError: string | undefined;
  try {
    await pushBranch(ctx.root, remote, target);
    record(`pushed ${target} to ${remote}`);
    // The run's own branch too, so another machine can resume or review it.
    await pushBranch(ctx.root, remote, run.branch);
    record(`pushed ${run.branch} to ${remote}`);
  } catch (error) {
    pushError = errorMessage(error);
    record(`push of ${target} to ${remote} failed (kept locally; the next integration pushes again): ${pushError}`);
  }
  await ctx.store
    .updateWorking((state) => {
      const r = findRun(state, run.id);
      if (r.integration)
        r.integration = { ...r.integration, pushed: pushError === undefined, ...(pushError ? { pushError } : {}) };
    })
    .catch(() => undefined);
}

type Move = 'ok' | 'moved' | 'stale';

/**
 * Moves `target` from `current` to `commit` for the run (nothing to move when they are equal) and records the
 * integration: the intent first, in a transaction that only changes state; then git's compare-and-swap, outside any
 * transaction and without blocking the thread; then the outcome, in a second transaction. 'moved': someone else moved
 * the branch first (the intent is cleared, nothing recorded); 'stale': the task is no longer INTEGRATING this run.
 */
async function moveTarget(
  ctx: RunContext,
  task: Task,
  run: Run,
  target: string,
  current: string | undefined,
  commit: string,
): Promise<Move> {
  const at = new Date().toISOString();
  const decided = await ctx.store.updateWorking((state) => {
    const t = findTask(state, task.id);
    const r = findRun(state, run.id);
    if (staleBecause(t, r) || t.state !== 'INTEGRATING') return 'stale' as const;
    if (current === commit) {
      recordIntegration(t, r, target, commit, at);
      return 'ok' as const;
    }
    r.integrationIntent = { branch: target, ...(current ? { from: current } : {}), to: commit, at };
    return 'intent' as const;
  });
  if (decided !== 'intent') return decided;
  const moved = await updateBranch(ctx.root, target, commit, current);
  return ctx.store.updateWorking((state): Move => {
    const t = findTask(state, task.id);
    const r = findRun(state, run.id);
    delete r.integrationIntent;
    if (!moved) return 'moved';
    // The branch moved: that is recorded whatever happened to the task since (a cancel is refused while the intent is
    // there; the change is on the target branch either way).
    recordIntegration(t, r, target, commit, at);
    return 'ok';
  });
}

/** The task's and the run's record of the run's change reaching `target` as `commit`. */
export function recordIntegration(t: Task, r: Run, target: string, commit: string, at: string): void {
  t.integration = { branch: target, commit, runId: r.id, at };
  r.integration = { branch: target, commit };
}

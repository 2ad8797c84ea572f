import type { FailureCode } from '../model/failureCodes';
import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import { sharedPrefixOf } from '../store/sharedPrefix';
import { freePortSlot } from '../lanes/portBlock';
import { branchName, worktreePath } from '../workspace/worktrees';
import { inputHash } from './inputHash';
import { setTaskState } from './setTaskState';
import { lastWithId } from '../store/lastWithId';

/** Failures a next attempt fixes on top of the failed attempt's commit, rather than redoing from the base. */
const FIX_ON_TOP: ReadonlySet<FailureCode> = new Set<FailureCode>([
  'verify-failed',
  'changes-requested',
  'guard-blocked',
  'ci-failed',
]);

type ResumeCapability = 'none' | 'run' | 'call' | undefined;

export interface NewRunOptions {
  root: string;
  owner: string;
  lane: string;
  resume: ResumeCapability;
  /** The target branch's head, when integration is on and the branch exists. */
  targetHead?: string;
  now: number;
}

/**
 * Moves a READY task to RUNNING and creates its next run (inside the claim's
 * store transaction): a fresh branch and worktree numbered after every
 * earlier run, the attempt, its parent and retry reason, the feedback the
 * task carries, the input hash, and where the worktree starts:
 * - after a verification failure, a review's changes or a guard's block:
 *   the failed attempt's commit (a fix attempt; `resumeFrom` says so);
 * - after a failure with salvaged work: that work, as before;
 * - for a task with dependencies, or after a merge conflict: the target
 *   branch's head, so it builds on what its dependencies merged;
 * - otherwise the task's base commit.
 */
export function newRun(state: ProjectState, task: Task, options: NewRunOptions): Run {
  const previous = task.lastRunId ? lastWithId(state.runs, task.lastRunId) : undefined;
  setTaskState(task, 'RUNNING');
  task.attempts += 1;
  // The history's shared runs (see sharedPrefixOf) are of finished tasks outside the working set, none of them RUNNING:
  // neither this task's runs (it is READY, so in the working set) nor a running one is among them.
  const working = state.runs.slice(sharedPrefixOf(state.runs)?.length ?? 0);
  const runNumber = working.filter((r) => r.taskId === task.id).length + 1;
  const id = `${task.id}.${runNumber}`;
  const start = startPoint(task, previous, options);
  const run: Run = {
    id,
    taskId: task.id,
    lane: options.lane,
    // Numbered across budgets: the first run after a Retry Task goes on from the last one.
    attempt: (task.attemptsBefore ?? 0) + task.attempts,
    parentRunId: previous?.id,
    retryReason: retryReasonAfter(previous),
    ...(start.resumeFrom ? { resumeFrom: start.resumeFrom } : {}),
    generation: task.generation,
    state: 'RUNNING',
    branch: branchName(task.id, runNumber),
    worktree: worktreePath(options.root, id),
    baseCommit: start.baseCommit,
    startedAt: new Date(options.now).toISOString(),
    owner: options.owner,
    inputHash: inputHash(task),
    ...(task.feedback ? { feedback: task.feedback } : {}),
    portSlot: freePortSlot(working.filter((r) => r.state === 'RUNNING').map((r) => r.portSlot)),
  };
  task.lastRunId = id;
  delete task.feedback;
  delete task.retryAt;
  state.runs.push(run);
  return run;
}

function startPoint(
  task: Task,
  previous: Run | undefined,
  options: NewRunOptions,
): { baseCommit: string; resumeFrom?: Run['resumeFrom'] } {
  const failed = previous?.state === 'FAILED' ? previous : undefined;
  const sessionId = options.resume === 'run' ? failed?.sessionId : undefined;
  if (failed?.failureCode && FIX_ON_TOP.has(failed.failureCode) && failed.headCommit) {
    return { baseCommit: failed.baseCommit, resumeFrom: { runId: failed.id, sessionId, commit: failed.headCommit } };
  }
  if (failed && (failed.salvage || sessionId)) {
    return {
      baseCommit: failed.baseCommit,
      resumeFrom: {
        runId: failed.id,
        sessionId,
        salvageBranch: failed.salvage?.branch,
        commit: failed.salvage?.commit,
      },
    };
  }
  if (options.targetHead && (task.spec.dependsOn.length > 0 || previous?.failureCode === 'merge-conflict'))
    return { baseCommit: options.targetHead };
  return { baseCommit: task.baseCommit };
}

/** Why this attempt follows the previous run; after an interruption it says so (that attempt was not counted). */
function retryReasonAfter(previous: Run | undefined): string | undefined {
  if (previous?.state !== 'FAILED') return undefined;
  if (previous.failureCode === 'interrupted')
    return (
      `follows an interruption of ${previous.id} (not counted as an attempt): ` +
      `${previous.failureReason ?? 'its owner stopped'}`
    );
  return previous.failureReason;
}

import type { FailureCode } from '../model/failureCodes';
import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import { sharedPrefixOf } from '../store/sharedPrefix';
import { freePortSlot } from '../lanes/portBlock';
import { branchName, worktreePath } from '../store/runPaths';
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
 * task carries, the input hash, and where the worktree starts (see
 * startPoint: one rule, which the lane's prompt states back).
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

/**
 * Where an attempt starts, and what it is told about the earlier work (`resumeFrom.start`), in this order:
 * - after a merge conflict (the target moved on under the earlier change): the target branch's current head
 *   (`target-head`; the task's base when the head could not be read: `base`). The earlier run's change conflicts with
 *   that head, so it is not in the worktree: its diff is given as context, and its session is not resumed there;
 * - after a verification failure, a review's changes or a guard's block: the failed attempt's commit (`earlier-work`:
 *   a fix attempt on top of it);
 * - after a failure with salvaged work: that work (`earlier-work`);
 * - for a task with dependencies: the target branch's head, so it builds on what its dependencies merged;
 * - otherwise the task's base commit.
 * The earlier run's CLI session is named with the directory it began in (its worktree): a lane resumes it only
 * there (see LaneRunInput.resume).
 */
function startPoint(
  task: Task,
  previous: Run | undefined,
  options: NewRunOptions,
): { baseCommit: string; resumeFrom?: Run['resumeFrom'] } {
  const failed = previous?.state === 'FAILED' ? previous : undefined;
  const sessionId = options.resume === 'run' ? failed?.sessionId : undefined;
  const session = failed && sessionId ? { sessionId, sessionCwd: failed.worktree } : {};
  if (failed?.failureCode === 'merge-conflict') {
    const work = failed.headCommit ? { workBranch: failed.branch } : {};
    return {
      baseCommit: options.targetHead ?? task.baseCommit,
      resumeFrom: { runId: failed.id, ...session, start: options.targetHead ? 'target-head' : 'base', ...work },
    };
  }
  if (failed?.failureCode && FIX_ON_TOP.has(failed.failureCode) && failed.headCommit) {
    return {
      baseCommit: failed.baseCommit,
      resumeFrom: {
        runId: failed.id,
        ...session,
        start: 'earlier-work',
        workBranch: failed.branch,
        commit: failed.headCommit,
      },
    };
  }
  if (failed?.salvage) {
    return {
      baseCommit: failed.baseCommit,
      resumeFrom: {
        runId: failed.id,
        ...session,
        start: 'earlier-work',
        salvageBranch: failed.salvage.branch,
        workBranch: failed.salvage.branch,
        commit: failed.salvage.commit,
      },
    };
  }
  const baseCommit = options.targetHead && task.spec.dependsOn.length > 0 ? options.targetHead : task.baseCommit;
  // Nothing of the earlier run is kept: only its session, which a lane resumes in the directory it began in.
  if (failed && sessionId) return { baseCommit, resumeFrom: { runId: failed.id, ...session, start: 'base' } };
  return { baseCommit };
}

/** Why this attempt follows the previous run; after an interruption it says so (that attempt was not counted). */
function retryReasonAfter(previous: Run | undefined): string | undefined {
  if (previous?.state !== 'FAILED') return undefined;
  if (previous.failureCode === 'interrupted')
    return `follows an interruption of ${previous.id} (not counted as an attempt): ${previous.failureReason ?? 'its owner stopped'}`;
  return previous.failureReason;
}

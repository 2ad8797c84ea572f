import { SwitchyardError } from '../errors';
import type { FailureCode } from '../model/failureCodes';
import { sumUsage, type Usage } from '../model/laneEvent';
import type { Run } from '../model/run';
import { assertRunTransition, type RunState } from '../model/runStates';
import { isStage } from '../model/stages';
import type { ProjectState } from '../store/projectState';
import type { LaneRegistry } from '../lanes/laneRegistry';
import { updateBreaker } from './breakerUpdate';
import { staleBecause } from './inputHash';
import { moveFailedTask, requeueInterrupted, type FinishOptions } from './moveFailedTask';
import { findTask, setTaskState } from './setTaskState';
import { lastWithId } from '../store/lastWithId';

export type { FinishOptions } from './moveFailedTask';

interface RunEndCommon {
  /** The lane's usage (its review's is `reviewUsage`; the run's `usage` is their sum). */
  usage?: Usage;
  reviewUsage?: Usage;
  headCommit?: string;
  diffStat?: Run['diffStat'];
  resumeCounts?: Run['resumeCounts'];
  sessionId?: string;
  salvage?: Run['salvage'];
  review?: Run['review'];
  stageWaitMs?: Run['stageWaitMs'];
  /** The lane itself finished its work (a later stage may still have failed): counts as a success for its breaker. */
  laneOk?: boolean;
}
export type RunEnd =
  | (RunEndCommon & { ok: true; summary?: string })
  | (RunEndCommon & { ok: false; code: FailureCode; reason: string; feedback?: string; summary?: string });

/** The run `id` of `state`. Ids are unique; searched from the end, where the working set's runs follow the history. */
export function findRun(state: ProjectState, id: string): Run {
  const run = lastWithId(state.runs, id);
  if (!run) throw new SwitchyardError('unknown-run', `unknown run "${id}"`);
  return run;
}

export function setRunState(run: Run, to: RunState): void {
  assertRunTransition(run.state, to, run.id);
  run.state = to;
}

export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a || !b) return a ?? b;
  return sumUsage(a, b);
}

/**
 * Records how a run ended and moves its task on: DONE, back to READY for
 * another attempt (per the retry policy, possibly on the next fallback
 * lane), or FAILED with the real last error. A result for a task that was
 * canceled, or whose input changed, meanwhile is kept as STALE_RESULT and
 * never counted. An interrupted run spends no attempt and leaves the
 * breaker alone (a host fault). Updates the lane's circuit breaker. Returns one line for
 * the run's log.
 */
export function finishRun(
  state: ProjectState,
  registry: LaneRegistry,
  runId: string,
  end: RunEnd,
  options: FinishOptions = {},
): string {
  const now = options.now ?? Date.now();
  const run = findRun(state, runId);
  const task = findTask(state, run.taskId);
  run.endedAt = new Date(now).toISOString();
  run.durationMs = now - Date.parse(run.startedAt);
  const reviewUsage = end.reviewUsage ?? run.reviewUsage;
  if (reviewUsage) run.reviewUsage = reviewUsage;
  run.usage = end.usage || reviewUsage ? addUsage(end.usage, reviewUsage) : run.usage;
  run.headCommit = end.headCommit ?? run.headCommit;
  run.diffStat = end.diffStat ?? run.diffStat;
  run.resumeCounts = end.resumeCounts ?? run.resumeCounts;
  run.sessionId = end.sessionId ?? run.sessionId;
  run.salvage = end.salvage ?? run.salvage;
  run.review = end.review ?? run.review;
  if (end.stageWaitMs && Object.keys(end.stageWaitMs).length) run.stageWaitMs = end.stageWaitMs;
  if (end.summary) run.summary = end.summary;

  const stale = staleBecause(task, run);
  if (stale) {
    setRunState(run, end.ok ? 'STALE_RESULT' : 'CANCELED');
    if (!end.ok) run.failureReason = end.reason;
    // Canceled by the user: recorded as a cancel, not as a failure of some unknown kind.
    if (!end.ok && task.state === 'CANCELED') run.failureCode = 'canceled';
    const sameGeneration = task.generation === run.generation && task.state !== 'CANCELED';
    if (sameGeneration && isStage(task.state) && task.lastRunId === run.id) {
      // The input changed under the run: the task goes back for an attempt on the new input.
      setTaskState(task, 'READY');
      task.attempts = Math.max(0, task.attempts - 1);
      return `${stale}: result kept as ${run.state}, not integrated; task ${task.id} back to READY for its new input`;
    }
    return `${stale}: result kept as ${run.state}, not integrated`;
  }

  const breakerNote = updateBreaker(state, run.lane, end.ok || end.laneOk ? undefined : end.code, now);
  if (breakerNote) options.notes?.push(breakerNote);
  if (end.ok) {
    setRunState(run, 'SUCCEEDED');
    setTaskState(task, 'DONE');
    delete task.failureReason;
    delete task.feedback;
    const pr = task.integration?.runId === run.id ? task.integration.pullRequest : undefined;
    const merged =
      task.integration?.runId === run.id
        ? ` (merged into ${task.integration.branch} as ${task.integration.commit.slice(0, 12)}` +
          `${pr ? ` by pull request #${pr.number}` : ''})`
        : '';
    return `task ${task.id} DONE${merged}`;
  }

  run.failureCode = end.code;
  run.failureReason = end.reason;
  if (end.code === 'canceled') {
    // The queue was stopped (not the task canceled): the attempt does not count.
    setRunState(run, 'CANCELED');
    task.attempts = Math.max(0, task.attempts - 1);
    setTaskState(task, 'READY');
    return `queue stopped: task ${task.id} back to READY`;
  }
  if (end.code === 'pull-request-closed') {
    // A person closed the pull request: the task ends the way they chose.
    setRunState(run, 'CANCELED');
    setTaskState(task, 'CANCELED');
    task.failureReason = end.reason;
    delete task.retryAt;
    return `task ${task.id} CANCELED: ${end.reason}`;
  }
  setRunState(run, 'FAILED');
  const requeued = end.code === 'interrupted' ? requeueInterrupted(state, task, run, end.reason) : undefined;
  if (requeued) return requeued;
  return moveFailedTask(state, registry, task, run, end.code, end.reason, end.feedback, { ...options, now });
}

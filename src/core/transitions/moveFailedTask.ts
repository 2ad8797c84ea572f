import type { FailureCode } from '../model/failureCodes';
import { FAILURE_CODES } from '../model/failureCodes';
import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { LaneRegistry } from '../lanes/laneRegistry';
import type { ProjectState } from '../store/projectState';
import { blockDependents } from './dependencyBlocks';
import { retryCap, retryVerdict } from './retryVerdict';
import { setTaskState } from './setTaskState';
import type { ErrorRule } from '../retry/classifyError';

export interface FinishOptions {
  /** Error classification rules (the project's, then the built-in ones). */
  rules?: readonly ErrorRule[];
  now?: number;
  random?: () => number;
  /**
   * Receives what the run's end changed besides its task (the lane's breaker opening or closing): a decision of its
   * own, never part of the task's line or its failure reason.
   */
  notes?: string[];
}

/**
 * After a failed run: another attempt (READY, with the failure as feedback
 * and a backoff for transient errors), the next lane of the fallback chain
 * with a fresh budget, or FAILED, which blocks the tasks that depend on it.
 * A review's changes go through CHANGES_REQUESTED. Returns the decision.
 */
export function moveFailedTask(
  state: ProjectState,
  registry: LaneRegistry,
  task: Task,
  run: Run,
  code: FailureCode,
  reason: string,
  feedback: string | undefined,
  options: FinishOptions & { now: number },
): string {
  const cap = retryCap(state, registry, run.lane);
  const verdict = retryVerdict({
    code,
    reason,
    attempt: task.attempts,
    cap,
    lane: run.lane,
    backoff: state.settings.retryBackoff,
    rules: options.rules,
    random: options.random,
  });
  if (code === 'changes-requested' && task.state === 'REVIEWING') setTaskState(task, 'CHANGES_REQUESTED');

  if (verdict.retry) {
    setTaskState(task, 'READY');
    task.failureReason = `${reason} (attempt ${run.attempt} failed; retrying)`;
    setFeedback(task, feedback);
    if (verdict.delayMs > 0) task.retryAt = new Date(options.now + verdict.delayMs).toISOString();
    else delete task.retryAt;
    return (
      `retrying task ${task.id} (attempt ${task.attempts + 1} of ` +
      `${cap}${verdict.delayMs > 0 ? `, not before ${task.retryAt}` : ''}): ${FAILURE_CODES[code].summary}; ${verdict.why}`
    );
  }

  const next = verdict.exhausted ? nextFallbackLane(state, task, run.lane, registry) : undefined;
  if (next) {
    task.fallbackFrom = [...(task.fallbackFrom ?? []), run.lane];
    task.spec.lane = next;
    task.attemptsBefore = (task.attemptsBefore ?? 0) + task.attempts;
    task.attempts = 0;
    setTaskState(task, 'READY');
    setFeedback(task, feedback);
    delete task.retryAt;
    task.failureReason = `${reason} (lane ${run.lane} ${attemptsSpent(cap)}; moved to fallback lane ${next})`;
    return `task ${task.id} moves to fallback lane ${next} with a fresh budget: lane ${run.lane} spent its ${cap} attempt(s)`;
  }

  setTaskState(task, 'FAILED');
  delete task.retryAt;
  if (verdict.exhausted) task.failureReason = `${reason} (${attemptsSpent(cap)}, the lane's limit)`;
  else if (FAILURE_CODES[code].retryable) task.failureReason = `${reason} (${verdict.why})`;
  else task.failureReason = reason;
  const blocked = blockDependents(state, task.id);
  return [`task ${task.id} FAILED: ${task.failureReason}`, ...blocked].join('; ');
}

/**
 * Interruptions in a row after which they count like any other failure: a lane that keeps killing its host still ends.
 */
export const FREE_INTERRUPTIONS = 5;

/**
 * After a run was interrupted (its owner died, its lease expired, it was
 * handed back): a host fault, not the lane's, so the task goes back to
 * READY at once without spending an attempt (the next run has the same
 * attempt number, and its `retryReason` says it follows an interruption).
 * From the FREE_INTERRUPTIONS-th interruption in a row on, an interruption
 * counts like any other failure. Returns the decision, or undefined when the
 * normal retry policy decides.
 */
export function requeueInterrupted(state: ProjectState, task: Task, run: Run, reason: string): string | undefined {
  let inARow = 0;
  for (const r of state.runs) if (r.taskId === task.id) inARow = r.failureCode === 'interrupted' ? inARow + 1 : 0;
  if (inARow >= FREE_INTERRUPTIONS) return undefined;
  task.attempts = Math.max(0, task.attempts - 1);
  setTaskState(task, 'READY');
  delete task.retryAt;
  task.failureReason = `run ${run.id} was interrupted (not counted as an attempt): ${reason}`;
  return `task ${task.id} back to READY: run ${run.id} was interrupted, a host fault that spends no attempt (interruption ${inARow} in a row; from ${FREE_INTERRUPTIONS} on they count)`;
}

/** "failed 2 attempts": the count after the reason, so a list cut short still shows why. */
export function attemptsSpent(cap: number): string {
  return `failed ${cap} attempt${cap === 1 ? '' : 's'}`;
}

function setFeedback(task: Task, feedback: string | undefined): void {
  if (feedback) task.feedback = feedback;
  else delete task.feedback;
}

/** The lane after `current` in the project's fallback chain that is registered and not used up by this task yet. */
function nextFallbackLane(
  state: ProjectState,
  task: Task,
  current: string,
  registry: LaneRegistry,
): string | undefined {
  const chain = state.settings.fallbackLanes;
  if (!chain.length) return undefined;
  const spent = new Set([...(task.fallbackFrom ?? []), current]);
  const start = chain.indexOf(current) + 1;
  return chain.slice(start).find((lane) => !spent.has(lane) && registry.get(lane) !== undefined);
}

import { SwitchyardError } from '../errors';
import { FAILURE_CODES, isRetryable, type FailureCode } from '../model/failureCodes';
import type { Usage } from '../model/laneEvent';
import type { Run } from '../model/run';
import { assertRunTransition, type RunState } from '../model/runStates';
import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import { findTask, setTaskState } from './taskCommands';
import type { LaneRegistry } from '../lanes/laneRegistry';

interface RunEndCommon {
  usage?: Usage;
  headCommit?: string;
  diffStat?: Run['diffStat'];
  resumeCounts?: Run['resumeCounts'];
  sessionId?: string;
  salvage?: Run['salvage'];
}
export type RunEnd = (RunEndCommon & { ok: true; summary?: string }) | (RunEndCommon & { ok: false; code: FailureCode; reason: string });

export function findRun(state: ProjectState, id: string): Run {
  const run = state.runs.find((r) => r.id === id);
  if (!run) throw new SwitchyardError('unknown-run', `unknown run "${id}"`);
  return run;
}

function setRunState(run: Run, to: RunState): void {
  assertRunTransition(run.state, to, run.id);
  run.state = to;
}

export function retryCap(state: ProjectState, registry: LaneRegistry, lane: string): number {
  return state.settings.retryCaps[lane] ?? registry.get(lane)?.manifest.defaultRetryCap ?? 1;
}

/**
 * Records how a run ended and moves its task on: DONE, back to READY for
 * another attempt, or FAILED with the real last error. A result for a task
 * that was canceled meanwhile is kept as STALE_RESULT and changes nothing else.
 * Returns a one-line decision for the run's log.
 */
export function finishRun(state: ProjectState, registry: LaneRegistry, runId: string, end: RunEnd): string {
  const run = findRun(state, runId);
  const task = findTask(state, run.taskId);
  const endedAt = new Date();
  run.endedAt = endedAt.toISOString();
  run.durationMs = endedAt.getTime() - Date.parse(run.startedAt);
  run.usage = end.usage ?? run.usage;
  run.headCommit = end.headCommit ?? run.headCommit;
  run.diffStat = end.diffStat ?? run.diffStat;
  run.resumeCounts = end.resumeCounts ?? run.resumeCounts;
  run.sessionId = end.sessionId ?? run.sessionId;
  run.salvage = end.salvage ?? run.salvage;

  if (task.generation !== run.generation || task.state === 'CANCELED') {
    setRunState(run, end.ok ? 'STALE_RESULT' : 'CANCELED');
    if (!end.ok) run.failureReason = end.reason;
    return `task ${task.id} was canceled while the run was under way: result kept as ${run.state}, not integrated`;
  }
  if (end.ok) {
    setRunState(run, 'SUCCEEDED');
    run.summary = end.summary;
    setTaskState(task, 'DONE');
    delete task.failureReason;
    return `task ${task.id} DONE`;
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
  setRunState(run, 'FAILED');
  return moveFailedTask(task, state, registry, run, end.code, end.reason);
}

function moveFailedTask(task: Task, state: ProjectState, registry: LaneRegistry, run: Run, code: FailureCode, reason: string): string {
  const cap = retryCap(state, registry, run.lane);
  if (isRetryable(code) && task.attempts < cap) {
    setTaskState(task, 'READY');
    task.failureReason = `attempt ${run.attempt} failed with: ${reason}`;
    return `retrying task ${task.id} (attempt ${task.attempts + 1} of ${cap}): ${FAILURE_CODES[code].summary}`;
  }
  setTaskState(task, 'FAILED');
  task.failureReason = isRetryable(code)
    ? `exceeded max attempts (${cap}): last attempt failed with: ${reason}`
    : reason;
  return `task ${task.id} FAILED: ${task.failureReason}`;
}

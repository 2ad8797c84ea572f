import { z } from 'zod';
import { SwitchyardError } from '../errors';
import { STAGES, isStage, type Stage } from './stages';

export { STAGES, isStage, type Stage };

export const TASK_STATES = [
  'DRAFT',
  'READY',
  'RUNNING',
  'VERIFYING',
  'REVIEWING',
  'INTEGRATING',
  'AWAITING_CI',
  'DONE',
  'BLOCKED',
  'CANCELED',
  'CHANGES_REQUESTED',
  'FAILED',
] as const;
export const TaskState = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof TaskState>;

/** Task states a task leaves only by a retry (FAILED, CANCELED) or never (DONE). */
export const FINISHED_TASK_STATES: ReadonlySet<string> = new Set<TaskState>(['DONE', 'CANCELED', 'FAILED']);

/**
 * Allowed task transitions. REVIEWING and INTEGRATING may be skipped when a
 * project turns review or integration off, so VERIFYING can go straight to DONE.
 * A task goes back to READY from any active stage when its run fails and the
 * retry policy allows another attempt (or the queue was stopped, or its owner
 * died); CHANGES_REQUESTED goes to READY with the review's reasons, or to
 * FAILED when the attempt budget is spent. READY ⇄ BLOCKED follows the
 * dependencies: a FAILED or CANCELED dependency blocks, its retry unblocks.
 * AWAITING_CI: the run's pull request is open and waits for the checks its base requires
 * (`integration.mode: "pull-request"`); merged → DONE, a failing check → READY (fix attempt),
 * closed by a person → CANCELED.
 */
const TASK_TRANSITIONS: Record<TaskState, readonly TaskState[]> = {
  DRAFT: ['READY', 'CANCELED'],
  READY: ['RUNNING', 'BLOCKED', 'CANCELED'],
  RUNNING: ['VERIFYING', 'READY', 'FAILED', 'CANCELED', 'BLOCKED'],
  VERIFYING: ['REVIEWING', 'INTEGRATING', 'DONE', 'READY', 'FAILED', 'CANCELED'],
  REVIEWING: ['INTEGRATING', 'DONE', 'CHANGES_REQUESTED', 'READY', 'FAILED', 'CANCELED'],
  INTEGRATING: ['DONE', 'AWAITING_CI', 'READY', 'FAILED', 'CANCELED'],
  AWAITING_CI: ['DONE', 'READY', 'FAILED', 'CANCELED'],
  CHANGES_REQUESTED: ['READY', 'FAILED', 'CANCELED'],
  BLOCKED: ['READY', 'CANCELED'],
  FAILED: ['READY', 'CANCELED'],
  CANCELED: ['READY'],
  DONE: [],
};

export function canTransitionTask(from: TaskState, to: TaskState): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

export function assertTaskTransition(from: TaskState, to: TaskState, taskId: string): void {
  if (!canTransitionTask(from, to)) {
    const allowed = TASK_TRANSITIONS[from];
    throw new SwitchyardError(
      'illegal-transition',
      `task ${taskId}: illegal transition ${from} → ${to} (from ${from} only ${allowed.length ? allowed.join(', ') : 'nothing'} is allowed)`,
    );
  }
}

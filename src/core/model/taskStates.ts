import { z } from 'zod';
import { SwitchyardError } from '../errors';

export const TASK_STATES = [
  'DRAFT', 'READY', 'RUNNING', 'VERIFYING', 'REVIEWING', 'INTEGRATING', 'DONE',
  'BLOCKED', 'CANCELED', 'CHANGES_REQUESTED', 'FAILED',
] as const;
export const TaskState = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof TaskState>;

/**
 * Allowed task transitions. REVIEWING and INTEGRATING may be skipped when a
 * project turns review or integration off, so VERIFYING can go straight to DONE.
 */
const TASK_TRANSITIONS: Record<TaskState, readonly TaskState[]> = {
  DRAFT: ['READY', 'CANCELED'],
  READY: ['RUNNING', 'BLOCKED', 'CANCELED'],
  RUNNING: ['VERIFYING', 'READY', 'FAILED', 'CANCELED', 'BLOCKED'],
  VERIFYING: ['REVIEWING', 'INTEGRATING', 'DONE', 'READY', 'FAILED', 'CANCELED'],
  REVIEWING: ['INTEGRATING', 'DONE', 'CHANGES_REQUESTED', 'FAILED', 'CANCELED'],
  INTEGRATING: ['DONE', 'READY', 'FAILED', 'CANCELED'],
  CHANGES_REQUESTED: ['READY', 'CANCELED'],
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

/** States in which a task holds a run slot or a downstream stage slot. */
export const ACTIVE_TASK_STATES: readonly TaskState[] = ['RUNNING', 'VERIFYING', 'REVIEWING', 'INTEGRATING'];

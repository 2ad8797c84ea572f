import assert from 'node:assert/strict';
import { TASK_STATES, canTransitionTask, type TaskState } from '../../../src/core/model/taskStates';
import { RUN_STATES, canTransitionRun, type RunState } from '../../../src/core/model/runStates';

/** The lifecycle as designed; every pair of states is checked against it, allowed or not. */
const TASK: Record<TaskState, TaskState[]> = {
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
const RUN: Record<RunState, RunState[]> = {
  RUNNING: ['SUCCEEDED', 'FAILED', 'CANCELED', 'STALE_RESULT'],
  SUCCEEDED: ['STALE_RESULT'],
  FAILED: [],
  CANCELED: ['STALE_RESULT'],
  STALE_RESULT: [],
};

describe('every state transition', () => {
  for (const from of TASK_STATES) {
    it(`task ${from}: allows exactly ${TASK[from].join(', ') || 'nothing'}`, () => {
      for (const to of TASK_STATES)
        assert.equal(canTransitionTask(from, to), TASK[from].includes(to), `${from} → ${to}`);
    });
  }
  for (const from of RUN_STATES) {
    it(`run ${from}: allows exactly ${RUN[from].join(', ') || 'nothing'}`, () => {
      for (const to of RUN_STATES) assert.equal(canTransitionRun(from, to), RUN[from].includes(to), `${from} → ${to}`);
    });
  }
});

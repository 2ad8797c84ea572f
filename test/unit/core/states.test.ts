import assert from 'node:assert/strict';
import { TASK_STATES, assertTaskTransition, canTransitionTask } from '../../../src/core/model/taskStates';
import { RUN_STATES, assertRunTransition, canTransitionRun } from '../../../src/core/model/runStates';
import { isSwitchyardError } from '../../../src/core/errors';

describe('task and run state machines', () => {
  it('allows the happy path DRAFT → READY → RUNNING → VERIFYING → REVIEWING → INTEGRATING → DONE', () => {
    const path = ['DRAFT', 'READY', 'RUNNING', 'VERIFYING', 'REVIEWING', 'INTEGRATING', 'DONE'] as const;
    for (let i = 1; i < path.length; i++)
      assert.ok(canTransitionTask(path[i - 1]!, path[i]!), `${path[i - 1]} → ${path[i]}`);
  });

  it('rejects an illegal task transition with an error naming both states', () => {
    assert.throws(
      () => assertTaskTransition('DONE', 'RUNNING', 't7'),
      (error: unknown) => {
        assert.ok(isSwitchyardError(error, 'illegal-transition'));
        assert.match(error.message, /t7: illegal transition DONE → RUNNING/);
        return true;
      },
    );
    assert.throws(() => assertTaskTransition('READY', 'DONE', 't1'), /READY → DONE.*only RUNNING, BLOCKED, CANCELED/);
  });

  it('DONE is terminal and a canceled task never goes straight to DONE', () => {
    for (const to of TASK_STATES) assert.equal(canTransitionTask('DONE', to), false);
    assert.equal(canTransitionTask('CANCELED', 'DONE'), false);
    assert.equal(canTransitionTask('CANCELED', 'INTEGRATING'), false);
  });

  it('runs end once; only a finished result can become STALE_RESULT', () => {
    for (const to of ['SUCCEEDED', 'FAILED', 'CANCELED', 'STALE_RESULT'] as const)
      assert.ok(canTransitionRun('RUNNING', to));
    assert.ok(canTransitionRun('SUCCEEDED', 'STALE_RESULT'));
    for (const to of RUN_STATES) assert.equal(canTransitionRun('FAILED', to), false);
    assert.throws(
      () => assertRunTransition('FAILED', 'SUCCEEDED', 't1.1'),
      /run t1\.1: illegal transition FAILED → SUCCEEDED/,
    );
  });
});

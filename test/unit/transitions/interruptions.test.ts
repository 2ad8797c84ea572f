import assert from 'node:assert/strict';
import { finishRun } from '../../../src/core/transitions/finishRun';
import { FREE_INTERRUPTIONS } from '../../../src/core/transitions/moveFailedTask';
import { newRun } from '../../../src/core/transitions/newRun';
import { registry, stateWith } from './engineState';

const opts = { root: '/repo', owner: 'me', lane: 'a', resume: 'none' as const, now: 1_000 };
const interrupted = {
  ok: false as const,
  code: 'interrupted' as const,
  reason: 'the process that owned the run stopped before the run finished',
};

describe('interruptions are host faults: no breaker, no attempt', () => {
  it(`an interrupted run spends no attempt and leaves the breaker alone, up to ${FREE_INTERRUPTIONS} in a row; then it counts`, () => {
    const state = stateWith([{ title: 'x', lane: 'a' }]);
    const task = state.tasks[0]!;
    const reg = registry({ id: 'a', cap: 1 });
    for (let i = 1; i < FREE_INTERRUPTIONS; i++) {
      const run = newRun(state, task, opts);
      assert.equal(run.attempt, 1, `run ${i}: still the first attempt`);
      if (i > 1)
        assert.match(
          run.retryReason!,
          /^follows an interruption of t1\.\d \(not counted as an attempt\): the process that owned/,
        );
      const line = finishRun(state, reg, run.id, interrupted, { now: 2_000 + i });
      assert.match(line, /back to READY: run t1\.\d was interrupted, a host fault that spends no attempt/);
      assert.equal(task.state, 'READY');
      assert.equal(task.attempts, 0);
      assert.equal(task.retryAt, undefined, 'no backoff');
      assert.equal(state.breakers.a, undefined, 'the breaker saw nothing');
    }
    const last = newRun(state, task, opts);
    finishRun(state, reg, last.id, interrupted, { now: 9_000 });
    assert.equal(task.state, 'FAILED', `the ${FREE_INTERRUPTIONS}th interruption in a row counts: cap 1 is spent`);
    assert.match(task.failureReason!, /\(failed 1 attempt, the lane's limit\)$/);
    assert.equal(state.breakers.a, undefined);
  });

  it('a lane failure between interruptions resets the count and still opens the breaker as before', () => {
    const state = stateWith([
      { title: 'x', lane: 'a' },
      { title: 'y', lane: 'a' },
      { title: 'z', lane: 'a' },
    ]);
    const reg = registry({ id: 'a', cap: 5 });
    for (const task of state.tasks) finishRun(state, reg, newRun(state, task, opts).id, interrupted, { now: 2_000 });
    assert.equal(state.breakers.a, undefined, '3 interruptions: breaker untouched');
    for (const task of state.tasks)
      finishRun(
        state,
        reg,
        newRun(state, task, opts).id,
        { ok: false, code: 'lane-exit', reason: 'HTTP 529 overloaded_error' },
        { now: 3_000 },
      );
    assert.equal(Object.values(state.breakers)[0]?.state, 'open', '3 lane failures still open it');
    assert.deepEqual(
      state.tasks.map((t) => t.attempts),
      [1, 1, 1],
      'only the lane failures spent attempts',
    );
  });
});

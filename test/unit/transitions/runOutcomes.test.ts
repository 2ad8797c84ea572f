import assert from 'node:assert/strict';
import { finishRun } from '../../../src/core/transitions/finishRun';
import { newRun } from '../../../src/core/transitions/newRun';
import { setTaskState } from '../../../src/core/engine/commands/taskCommands';
import { registry, runOf, stateWith } from './engineState';

const opts = (lane = 'a') => ({ root: '/repo', owner: 'me', lane, resume: 'none' as const, now: 1_000 });
const noJitter = { random: () => 0.5, now: 2_000 };

describe('run outcomes: STALE_RESULT, retries, fix attempts, fallback, blocking', () => {
  it('a result for a canceled generation is kept as STALE_RESULT and the task stays CANCELED', () => {
    const state = stateWith([{ title: 'x', lane: 'a' }]);
    const task = state.tasks[0]!;
    const run = newRun(state, task, opts());
    setTaskState(task, 'CANCELED');
    task.generation += 1;
    const line = finishRun(state, registry({ id: 'a', cap: 2 }), run.id, { ok: true, headCommit: 'late' }, noJitter);
    assert.equal(runOf(state, run.id).state, 'STALE_RESULT');
    assert.equal(task.state, 'CANCELED');
    assert.match(line, /was canceled while the run was under way: result kept as STALE_RESULT, not integrated/);
  });

  it('a result whose input hash no longer matches the task is STALE_RESULT; the task runs again on its new input', () => {
    const state = stateWith([{ title: 'x', spec: 'old', lane: 'a' }]);
    const task = state.tasks[0]!;
    const run = newRun(state, task, opts());
    task.spec.spec = 'new instructions';
    const line = finishRun(state, registry({ id: 'a', cap: 2 }), run.id, { ok: true }, noJitter);
    assert.equal(runOf(state, run.id).state, 'STALE_RESULT');
    assert.equal(task.state, 'READY');
    assert.equal(task.attempts, 0, 'the stale attempt does not count');
    assert.match(line, /input changed while the run was under way/);
  });

  it('a transient lane error is retried with backoff; a permanent one is not', () => {
    const state = stateWith([
      { title: 'x', lane: 'a' },
      { title: 'y', lane: 'a' },
    ]);
    const reg = registry({ id: 'a', cap: 3 });
    const r1 = newRun(state, state.tasks[0]!, opts());
    const line = finishRun(
      state,
      reg,
      r1.id,
      { ok: false, code: 'lane-exit', reason: 'HTTP 529 overloaded_error' },
      noJitter,
    );
    assert.equal(state.tasks[0]!.state, 'READY');
    assert.equal(state.tasks[0]!.retryAt, new Date(3_000).toISOString(), "waits the policy's first backoff (1 s)");
    assert.match(line, /retrying task t1 \(attempt 2 of 3, not before .*\): .*transient \(overloaded\)/);
    const r2 = newRun(state, state.tasks[1]!, opts());
    finishRun(
      state,
      reg,
      r2.id,
      { ok: false, code: 'lane-exit', reason: 'authentication_error: invalid x-api-key' },
      noJitter,
    );
    assert.equal(state.tasks[1]!.state, 'FAILED');
    assert.match(
      state.tasks[1]!.failureReason!,
      /^authentication_error: invalid x-api-key \(not retried: permanent \(auth-invalid/,
    );
  });

  it('a verification failure starts a fix attempt on top of the failed commit with the output as feedback', () => {
    const state = stateWith([{ title: 'x', lane: 'a', acceptance: 'npm test' }]);
    const task = state.tasks[0]!;
    const r1 = newRun(state, task, opts());
    setTaskState(task, 'VERIFYING');
    finishRun(
      state,
      registry({ id: 'a', cap: 2 }),
      r1.id,
      {
        ok: false,
        code: 'verify-failed',
        reason: 'npm test exited 1',
        headCommit: 'c1',
        feedback: 'FAIL src/a.test.ts',
        laneOk: true,
      },
      noJitter,
    );
    assert.equal(task.state, 'READY');
    assert.equal(task.retryAt, undefined, 'a fix attempt does not back off');
    const r2 = newRun(state, task, opts());
    assert.deepEqual(r2.resumeFrom, { runId: r1.id, start: 'earlier-work', workBranch: r1.branch, commit: 'c1' });
    assert.equal(r2.baseCommit, r1.baseCommit);
    assert.equal(r2.feedback, 'FAIL src/a.test.ts');
    assert.equal(r2.parentRunId, r1.id);
    assert.equal(r2.attempt, 2);
    assert.equal(task.feedback, undefined, 'the feedback was handed to the run');
  });

  it('changes requested by the review go through CHANGES_REQUESTED back to READY with the reasons', () => {
    const state = stateWith([{ title: 'x', lane: 'a' }]);
    const task = state.tasks[0]!;
    const r1 = newRun(state, task, opts());
    setTaskState(task, 'VERIFYING');
    setTaskState(task, 'REVIEWING');
    const review = { lane: 'a', verdict: 'changes-requested' as const, reasons: ['name the constant'] };
    finishRun(
      state,
      registry({ id: 'a', cap: 2 }),
      r1.id,
      {
        ok: false,
        code: 'changes-requested',
        reason: 'review requested changes: name the constant',
        feedback: '- name the constant',
        review,
        headCommit: 'c1',
        laneOk: true,
      },
      noJitter,
    );
    assert.equal(task.state, 'READY');
    assert.equal(task.feedback, '- name the constant');
    assert.deepEqual(runOf(state, r1.id).review, review);
  });

  it('a spent cap moves the task down the fallback chain with a fresh budget, then FAILS with the real error', () => {
    const state = stateWith([{ title: 'x', lane: 'a' }]);
    state.settings.fallbackLanes = ['b'];
    state.settings.retryBackoff.initialMs = 0;
    const reg = registry({ id: 'a', cap: 1 }, { id: 'b', cap: 1 });
    const task = state.tasks[0]!;
    const r1 = newRun(state, task, opts('a'));
    const line = finishRun(state, reg, r1.id, { ok: false, code: 'lane-timeout', reason: 'timed out' }, noJitter);
    assert.match(line, /moves to fallback lane b with a fresh budget: lane a spent its 1 attempt/);
    assert.equal(task.spec.lane, 'b');
    assert.equal(task.attempts, 0);
    const r2 = newRun(state, task, opts('b'));
    finishRun(state, reg, r2.id, { ok: false, code: 'lane-timeout', reason: 'timed out again' }, noJitter);
    assert.equal(task.state, 'FAILED');
    assert.equal(task.failureReason, "timed out again (failed 1 attempt, the lane's limit)");
    assert.deepEqual(task.fallbackFrom, ['a']);
  });

  it('a FAILED task blocks the tasks that depend on it; a policy violation is never retried', () => {
    const state = stateWith([
      { title: 'x', lane: 'a' },
      { title: 'y', dependsOn: ['t1'] },
      { title: 'z', dependsOn: ['t2'] },
    ]);
    const task = state.tasks[0]!;
    const r1 = newRun(state, task, opts());
    setTaskState(task, 'VERIFYING');
    const line = finishRun(
      state,
      registry({ id: 'a', cap: 5 }),
      r1.id,
      { ok: false, code: 'policy-violation', reason: 'blocked by guards: secret-scan: .env:1: AWS key', laneOk: true },
      noJitter,
    );
    assert.equal(task.state, 'FAILED');
    assert.equal(task.failureReason, 'blocked by guards: secret-scan: .env:1: AWS key');
    assert.deepEqual(
      state.tasks.map((t) => t.state),
      ['FAILED', 'BLOCKED', 'BLOCKED'],
    );
    assert.deepEqual(state.tasks[2]!.blockedBy, ['t1']);
    assert.match(line, /task t2 BLOCKED: it depends on t1, which is FAILED/);
  });

  it('failures of the lane feed its stored breaker; stage failures do not', () => {
    const state = stateWith([
      { title: 'a1', lane: 'a' },
      { title: 'a2', lane: 'a' },
      { title: 'a3', lane: 'a' },
      { title: 'a4', lane: 'a' },
    ]);
    state.settings.breaker.failures = 2;
    const reg = registry({ id: 'a', cap: 1 });
    const [t1, t2, t3, t4] = state.tasks;
    finishRun(
      state,
      reg,
      newRun(state, t1!, opts()).id,
      { ok: false, code: 'verify-failed', reason: 'x', laneOk: true },
      noJitter,
    );
    assert.ok(!('a' in state.breakers), 'a verification failure says nothing about the lane');
    finishRun(state, reg, newRun(state, t2!, opts()).id, { ok: false, code: 'lane-crash', reason: 'boom' }, noJitter);
    const notes: string[] = [];
    const line = finishRun(
      state,
      reg,
      newRun(state, t3!, opts()).id,
      { ok: false, code: 'lane-crash', reason: 'boom' },
      { ...noJitter, notes },
    );
    assert.equal(state.breakers.a!.state, 'open');
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /^breaker on lane a OPEN: 2 × lane-crash in a row/);
    assert.doesNotMatch(line, /breaker/, "the breaker's news is a line of its own, not the task's");
    assert.doesNotMatch(state.tasks.find((t) => t.id === t3!.id)!.failureReason ?? '', /breaker/);
    void t4;
  });
});

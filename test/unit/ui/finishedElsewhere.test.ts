import assert from 'node:assert/strict';
import { FinishedElsewhereRuns, finishedElsewhereText } from '../../../src/ui/progress/finishedElsewhere';
import { run, state, task } from '../../helpers/panelFixture';

/** Runs finished by another process are told once; this window's own, and what ended before it looked, are not. */
describe('runs finished elsewhere', () => {
  const here = 'this-host/1/a';
  const elsewhere = 'worker-host/2/b';

  it('the first state is the baseline; a task another process finishes is reported once, this window’s are not', () => {
    const runs = new FinishedElsewhereRuns();
    const before = state({
      tasks: [
        task({ id: 't1', state: 'DONE', lastRunId: 't1.1' }),
        task({ id: 't2', state: 'RUNNING', lastRunId: 't2.1' }),
      ],
      runs: [
        run({ id: 't1.1', taskId: 't1', state: 'SUCCEEDED', owner: elsewhere }),
        run({ id: 't2.1', taskId: 't2', state: 'RUNNING', owner: elsewhere }),
      ],
    });
    assert.deepEqual(runs.observe(before, here), [], 'what ended before the window looked is not news');
    const after = state({
      tasks: [
        task({ id: 't1', state: 'DONE', lastRunId: 't1.1' }),
        task({ id: 't2', state: 'FAILED', lastRunId: 't2.1', spec: { title: 'Tidy' } }),
        task({ id: 't3', state: 'DONE', lastRunId: 't3.1' }),
      ],
      runs: [
        run({ id: 't1.1', taskId: 't1', state: 'SUCCEEDED', owner: elsewhere }),
        run({ id: 't2.1', taskId: 't2', state: 'FAILED', owner: elsewhere }),
        run({ id: 't3.1', taskId: 't3', state: 'SUCCEEDED', owner: here }),
      ],
    });
    const news = runs.observe(after, here);
    assert.deepEqual(news, [{ taskId: 't2', title: 'Tidy', state: 'FAILED', runId: 't2.1' }]);
    assert.deepEqual(runs.observe(after, here), [], 'once');
    assert.match(finishedElsewhereText(news), /^Switchyard: t2 · Tidy FAILED \(finished in another Switchyard process/);
  });

  it('a failed attempt that is retried is not the task’s end: only the run that ends the task counts', () => {
    const runs = new FinishedElsewhereRuns();
    runs.observe(state({ tasks: [task({ id: 't1', state: 'RUNNING', lastRunId: 't1.1' })] }), here);
    const retried = state({
      tasks: [task({ id: 't1', state: 'READY', lastRunId: 't1.1' })],
      runs: [run({ id: 't1.1', taskId: 't1', state: 'FAILED', owner: elsewhere })],
    });
    assert.deepEqual(runs.observe(retried, here), []);
    const done = state({
      tasks: [task({ id: 't1', state: 'DONE', lastRunId: 't1.2' })],
      runs: [
        run({ id: 't1.1', taskId: 't1', state: 'FAILED', owner: elsewhere }),
        run({ id: 't1.2', taskId: 't1', state: 'SUCCEEDED', owner: elsewhere }),
      ],
    });
    assert.deepEqual(
      runs.observe(done, here).map((n) => n.runId),
      ['t1.2'],
    );
  });
  it('a task whose pull request merged is left to the merge notification (one toast for it, wherever it ran)', () => {
    const runs = new FinishedElsewhereRuns();
    runs.observe(state({ tasks: [task({ id: 't1', state: 'AWAITING_CI', lastRunId: 't1.1' })] }), here);
    const landed = {
      branch: 'main',
      commit: 'c'.repeat(40),
      runId: 't1.1',
      at: '2026-01-01T00:00:00.000Z',
      pullRequest: { number: 7, url: 'https://github.example/o/r/pull/7' },
    };
    const merged = state({
      tasks: [
        task({ id: 't1', state: 'DONE', lastRunId: 't1.1', integration: landed }),
        task({ id: 't2', state: 'DONE', lastRunId: 't2.1' }),
      ],
      runs: [
        run({ id: 't1.1', taskId: 't1', state: 'SUCCEEDED', owner: elsewhere }),
        run({ id: 't2.1', taskId: 't2', state: 'SUCCEEDED', owner: elsewhere }),
      ],
    });
    assert.deepEqual(
      runs.observe(merged, here).map((n) => n.taskId),
      ['t2'],
    );
  });
});

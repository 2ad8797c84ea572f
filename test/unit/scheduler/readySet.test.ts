import assert from 'node:assert/strict';
import { finish, ids, sched, task } from './schedHelpers';

describe("scheduler: the DAG's ready set", () => {
  it('a task is ready only when every dependency is DONE; DONE releases its dependents at once', () => {
    const s = sched();
    s.add(task('a'), 'READY', 0);
    s.add(task('b', { deps: ['a'] }), 'READY', 0);
    s.add(task('c', { deps: ['a', 'b'] }), 'READY', 0);
    assert.equal(s.readyCount, 1);
    assert.deepEqual(ids(s, 1), ['a']);
    assert.deepEqual(ids(s, 2), [], 'b waits on a');
    assert.match(s.waitingReason('c', 2), /waits on a, b \(not DONE\)/);
    finish(s, 'a', 3);
    assert.deepEqual(ids(s, 4), ['b']);
    finish(s, 'b', 5);
    assert.deepEqual(ids(s, 6), ['c']);
  });

  it('picking moves a task to RUNNING, so the same task is never handed out twice', () => {
    const s = sched();
    s.add(task('a'), 'READY', 0);
    assert.deepEqual(ids(s, 1), ['a']);
    assert.equal(s.state('a'), 'RUNNING');
    assert.deepEqual(ids(s, 2), []);
  });

  it('a dependency added after its dependent counts as unmet until it is DONE', () => {
    const s = sched();
    s.add(task('late-dependent', { deps: ['x'] }), 'READY', 0);
    assert.equal(s.readyCount, 0);
    s.add(task('x'), 'DONE', 0);
    assert.equal(s.readyCount, 1);
  });

  it('a task going back to READY (a retry) re-enters the ready set; one in backoff waits for its time', () => {
    const s = sched();
    s.add(task('a'), 'READY', 0);
    ids(s, 0);
    s.setState('a', 'READY', 10);
    s.setRetryAt('a', 1_000, 10);
    assert.deepEqual(ids(s, 500), []);
    assert.match(s.waitingReason('a', 500), /retry backoff until/);
    assert.equal(s.nextRetryAt(), 1_000);
    assert.deepEqual(ids(s, 1_000), ['a']);
  });

  it('BLOCKED, CANCELED and DRAFT tasks are not ready; held tasks are tracked but never picked', () => {
    const s = sched();
    s.add(task('blocked'), 'BLOCKED', 0);
    s.add(task('draft'), 'DRAFT', 0);
    s.add(task('held', { hold: true }), 'READY', 0);
    assert.deepEqual(ids(s, 1), []);
    s.setState('blocked', 'READY', 2);
    assert.deepEqual(ids(s, 3), ['blocked']);
  });

  it('two tasks that target the same file never run at once: the second waits for the file', () => {
    const s = sched();
    s.add(task('a', { files: ['src/x.ts'] }), 'READY', 0);
    s.add(task('b', { files: ['src/x.ts', 'src/y.ts'] }), 'READY', 0);
    s.add(task('c', { files: ['src/y.ts'] }), 'READY', 0);
    const first = s.pick(1);
    assert.deepEqual(
      first.picks.map((p) => p.id),
      ['a', 'c'],
    );
    assert.deepEqual(first.parked, [{ id: 'b', file: 'src/x.ts', heldBy: 'a' }]);
    finish(s, 'a', 2);
    assert.deepEqual(ids(s, 3), [], 'b still waits: c holds src/y.ts');
    finish(s, 'c', 4);
    assert.deepEqual(ids(s, 5), ['b']);
  });

  it('keeps a 10 000-task chain without recursion or rescans', () => {
    const s = sched({ RUNNING: 64 });
    for (let i = 0; i < 10_000; i++) s.add(task(`n${i}`, { deps: i ? [`n${i - 1}`] : [] }), 'READY', 0);
    for (let i = 0; i < 10_000; i++) {
      assert.deepEqual(ids(s, i), [`n${i}`]);
      finish(s, `n${i}`, i);
    }
  });
});

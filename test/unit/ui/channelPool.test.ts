import assert from 'node:assert/strict';
import { ChannelPool, runSeparator, taskChannelName, taskIdOfRun } from '../../../src/ui/views/channelPool';

/** A channel that records whether it was closed. */
class Fake {
  closed = false;
  constructor(readonly name: string) {}
  dispose(): void {
    this.closed = true;
  }
}

describe('the output channel pool (one channel per task, a bounded number)', () => {
  it('gives a task the same channel for every run', () => {
    const pool = new ChannelPool<Fake>(3);
    const first = pool.obtain('t1', () => new Fake('t1'));
    const again = pool.obtain('t1', () => new Fake('t1 again'));
    assert.equal(again, first);
    assert.equal(pool.size, 1);
  });

  it('closes the least recently used channel when one more than the bound opens', () => {
    const pool = new ChannelPool<Fake>(2);
    const t1 = pool.obtain('t1', () => new Fake('t1'));
    const t2 = pool.obtain('t2', () => new Fake('t2'));
    pool.get('t1'); // t1 used after t2: t2 is now the least recently used
    const t3 = pool.obtain('t3', () => new Fake('t3'));
    assert.deepEqual(pool.keys(), ['t1', 't3']);
    assert.equal(t2.closed, true, 't2 closed');
    assert.equal(t1.closed, false);
    assert.equal(t3.closed, false);
    // A closed task gets a new channel when it runs again.
    const t2again = pool.obtain('t2', () => new Fake('t2 again'));
    assert.equal(t2again.name, 't2 again');
    assert.equal(t1.closed, true, 't1 was the least recently used then');
    assert.equal(pool.size, 2);
  });

  it('closes the channels of the tasks it is told to drop, and all on dispose', () => {
    const pool = new ChannelPool<Fake>(20);
    const made = ['t1', 't2', 't3'].map((id) => pool.obtain(id, () => new Fake(id)));
    assert.deepEqual(
      pool.retain((id) => id !== 't2'),
      ['t2'],
    );
    assert.deepEqual(
      made.map((f) => f.closed),
      [false, true, false],
    );
    pool.close('t1');
    pool.close('t-none');
    assert.deepEqual(pool.keys(), ['t3']);
    pool.dispose();
    assert.equal(made[2]!.closed, true);
    assert.equal(pool.size, 0);
  });

  it('refuses a bound below 1', () => {
    assert.throws(() => new ChannelPool<Fake>(0), /at least 1/);
  });

  it('names a channel after the task id and a short title with no control characters', () => {
    assert.equal(taskChannelName('t3', 'Fix the parser'), 'Switchyard: t3 · Fix the parser');
    assert.equal(taskChannelName('t3', undefined), 'Switchyard: t3');
    assert.equal(taskChannelName('t4', '\u001b[31mred\u001b[0m\nline\ttwo\u0007'), 'Switchyard: t4 · red line two');
    assert.equal(taskChannelName('t5', 'photo\u202Egnp.exe'), 'Switchyard: t5 · photo<U+202E>gnp.exe');
    const long = taskChannelName('t6', 'x'.repeat(100));
    assert.equal(long, `Switchyard: t6 · ${'x'.repeat(39)}…`);
  });

  it("finds a run's task and writes the separator of a new attempt", () => {
    assert.equal(taskIdOfRun('t12.3'), 't12');
    assert.equal(taskIdOfRun('t1'), 't1');
    assert.equal(runSeparator('t1.2', ['attempt 2', 'lane codex']), '──── run t1.2 · attempt 2 · lane codex ────');
    assert.equal(runSeparator('t1.1\u001b[2J'), '──── run t1.1 ────');
  });
});

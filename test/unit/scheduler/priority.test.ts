import assert from 'node:assert/strict';
import { orderKey, scoreAt, URGENT_BONUS } from '../../../src/core/scheduler/priorityScore';
import { finish, ids, sched, task } from './schedHelpers';

const MIN = 60_000;

describe('scheduler: priority, aging, urgency, unblocking, cost', () => {
  /**
   * Each minute a new priority-60 task arrives and one task runs to DONE; returns the minute the priority-0 task ran.
   */
  function stream(agingPerMinute: number): number | undefined {
    const s = sched({ RUNNING: 1 }, { agingPerMinute });
    s.add(task('low', { priority: 0 }), 'READY', 0);
    for (let minute = 1; minute <= 120; minute++) {
      const now = minute * MIN;
      s.add(task(`new${minute}`, { priority: 60 }), 'READY', now);
      const [picked] = ids(s, now);
      if (picked === 'low') return minute;
      if (picked) finish(s, picked, now);
    }
    return undefined;
  }

  it('aging: a low-priority task is not starved by a stream of new higher-priority tasks', () => {
    const started = stream(1);
    assert.ok(
      started !== undefined && started > 55 && started <= 62,
      `it ran once its aging made up the 60 points (minute ${started})`,
    );
    assert.equal(stream(0), undefined, 'without aging the same stream starves it');
  });

  it('the heap key is time-invariant: ordering by key equals ordering by score at any time', () => {
    const tasks = [
      { priority: 10, unblocks: 0, estCostUsd: 0, readySince: 0 },
      { priority: 50, unblocks: 3, estCostUsd: 1, readySince: 30 * MIN },
      { priority: 90, unblocks: 0, estCostUsd: 0, readySince: 100 * MIN },
    ];
    for (const now of [100 * MIN, 150 * MIN, 500 * MIN]) {
      const byKey = [...tasks].sort((a, b) => orderKey(b, now, 1) - orderKey(a, now, 1));
      const byScore = [...tasks].sort((a, b) => scoreAt(b, now, 1) - scoreAt(a, now, 1));
      assert.deepEqual(byKey, byScore);
    }
  });

  it('an urgent task goes first until its flag expires, then it is ordinary again', () => {
    const s = sched({ RUNNING: 1 });
    s.add(task('normal', { priority: 80 }), 'READY', 0);
    s.add(task('urgent', { priority: 10, urgentUntil: 10 * MIN }), 'READY', 0);
    s.add(task('urgent2', { priority: 10, urgentUntil: 10 * MIN }), 'READY', 0);
    assert.deepEqual(ids(s, MIN), ['urgent']);
    finish(s, 'urgent', MIN);
    assert.deepEqual(ids(s, 11 * MIN), ['normal'], 'the second urgent flag expired at minute 10');
    assert.ok(URGENT_BONUS > 100);
  });

  it('a task that unblocks more work and a cheaper lane come first among equals', () => {
    const s = sched({ RUNNING: 1 }, { costOf: (lane) => (lane === 'pricey' ? 2 : 0) });
    s.add(task('leaf'), 'READY', 0);
    s.add(task('hub'), 'READY', 0);
    for (const d of ['d1', 'd2', 'd3']) s.add(task(d, { deps: ['hub'] }), 'READY', 0);
    assert.deepEqual(ids(s, 1), ['hub']);
    const c = sched({ RUNNING: 1 }, { costOf: (lane) => (lane === 'pricey' ? 2 : 0) });
    c.add(task('expensive', { lane: 'pricey' }), 'READY', 0);
    c.add(task('cheap', { lane: 'free' }), 'READY', 0);
    const [pick] = c.pick(1).picks;
    assert.equal(pick!.id, 'cheap');
    assert.match(c.explain(pick!), /^score 50\.0 \(priority 50, waited 0\.0 min \+0\.0\)$/);
  });

  it('explains each pick: score, wait and what made it up', () => {
    const s = sched();
    s.add(task('a', { priority: 70, urgentUntil: 60 * MIN }), 'READY', 0);
    s.add(task('b', { deps: ['a'] }), 'READY', 0);
    const [pick] = s.pick(30 * MIN).picks;
    assert.equal(pick!.waitedMs, 30 * MIN);
    assert.match(
      s.explain(pick!),
      /^score 1102\.0 \(priority 70, urgent \+1000 until .*, waited 30\.0 min \+30\.0, unblocks 1 \+2\)$/,
    );
  });
});

import assert from 'node:assert/strict';
import { describeUsage, startVerdict } from '../../../src/core/scheduler/stageLimits';
import { ids, sched, task } from './schedHelpers';

describe('scheduler: stage WIP limits and backpressure', () => {
  it('a saturated VERIFYING stage stops new starts while run slots are free', () => {
    const s = sched({ RUNNING: 4, VERIFYING: 2 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) s.add(task(id), 'READY', 0);
    assert.deepEqual(ids(s, 1, 2), ['a', 'b']);
    s.setState('a', 'VERIFYING', 2);
    s.setState('b', 'VERIFYING', 2);
    const blocked = s.pick(3);
    assert.deepEqual(blocked.picks, [], 'two RUNNING slots are free, yet nothing starts');
    assert.equal(blocked.backpressure, true);
    assert.match(blocked.reason!, /backpressure: VERIFYING is full \(2\/2\)/);
    s.setState('a', 'DONE', 4);
    assert.deepEqual(
      ids(s, 5),
      ['c', 'd', 'e'],
      'a free VERIFYING slot lifts the backpressure; RUNNING has room for 3',
    );
  });

  it('full REVIEWING or INTEGRATING also stop new starts; a full RUNNING stage is not backpressure', () => {
    const limits = { RUNNING: 2, VERIFYING: 2, REVIEWING: 1, INTEGRATING: 1, AWAITING_CI: 4 };
    assert.deepEqual(startVerdict({ RUNNING: 0, VERIFYING: 0, REVIEWING: 1, INTEGRATING: 0, AWAITING_CI: 0 }, limits), {
      ok: false,
      backpressure: true,
      reason: 'backpressure: REVIEWING is full (1/1), so no new run starts',
    });
    assert.equal(
      (
        startVerdict({ RUNNING: 0, VERIFYING: 0, REVIEWING: 0, INTEGRATING: 1, AWAITING_CI: 0 }, limits) as {
          reason: string;
        }
      ).reason,
      'backpressure: INTEGRATING is full (1/1), so no new run starts',
    );
    assert.deepEqual(startVerdict({ RUNNING: 2, VERIFYING: 0, REVIEWING: 0, INTEGRATING: 0, AWAITING_CI: 0 }, limits), {
      ok: false,
      backpressure: false,
      reason: 'RUNNING is full (2/2)',
    });
    assert.deepEqual(startVerdict({ RUNNING: 1, VERIFYING: 1, REVIEWING: 0, INTEGRATING: 0, AWAITING_CI: 0 }, limits), {
      ok: true,
      free: 1,
    });
    assert.equal(
      describeUsage(
        { RUNNING: 1, VERIFYING: 2, REVIEWING: 0, INTEGRATING: 1, AWAITING_CI: 0 },
        { ...limits, VERIFYING: 2 },
      ),
      'RUNNING 1/2 · VERIFYING 2/2 (full) · REVIEWING 0/1 · INTEGRATING 1/1 (full) · AWAITING_CI 0/4',
    );
  });

  it('counts every stage from task events and remembers the peak', () => {
    const s = sched();
    for (const id of ['a', 'b', 'c']) s.add(task(id), 'READY', 0);
    ids(s, 1);
    assert.deepEqual(s.stages.counts, { RUNNING: 3, VERIFYING: 0, REVIEWING: 0, INTEGRATING: 0, AWAITING_CI: 0 });
    s.setState('a', 'VERIFYING', 2);
    s.setState('b', 'CANCELED', 2);
    assert.deepEqual(s.stages.counts, { RUNNING: 1, VERIFYING: 1, REVIEWING: 0, INTEGRATING: 0, AWAITING_CI: 0 });
    assert.equal(s.stages.peak.RUNNING, 3);
  });

  it('a lane whose gate refuses is passed over; other lanes still start', () => {
    const s = sched(
      {},
      { laneGate: (lane) => (lane === 'broken' ? { allow: false, reason: 'breaker open' } : { allow: true }) },
    );
    s.add(task('x', { lane: 'broken', priority: 90 }), 'READY', 0);
    s.add(task('y', { lane: 'fine', priority: 10 }), 'READY', 0);
    const result = s.pick(1);
    assert.deepEqual(
      result.picks.map((p) => p.id),
      ['y'],
    );
    assert.deepEqual(result.skippedLanes, [{ lane: 'broken', reason: 'breaker open' }]);
  });
});

import * as assert from 'node:assert/strict';
import { SchedulerMirror } from '../../../src/core/engine/drain/schedulerMirror';
import { buildPanelView } from '../../../src/core/panel/buildPanelView';
import { PanelStore } from '../../../webview/panelStore';
import { T0, iso, run, state, task } from '../../helpers/panelFixture';

describe('panel ready order matches the scheduler', () => {
  it('lists READY tasks in the order the real scheduler picks them (priority, urgent, unblocks, lane cost, aging, task number)', () => {
    const now = T0 + 600_000;
    const tasks = [
      task({ id: 't1', state: 'READY', updatedAt: iso(0), spec: { priority: 50 } }),
      task({ id: 't2', state: 'READY', updatedAt: iso(300_000), spec: { priority: 55 } }),
      task({
        id: 't3',
        state: 'READY',
        updatedAt: iso(0),
        spec: { priority: 10, urgent: { owner: 'ana', reason: 'release', expiresAt: iso(3_600_000) } },
      }),
      task({
        id: 't4',
        state: 'READY',
        updatedAt: iso(0),
        spec: { priority: 20, urgent: { owner: 'ana', reason: 'expired', expiresAt: iso(1_000) } },
      }),
      task({ id: 't5', state: 'READY', updatedAt: iso(0), spec: { priority: 45 } }),
      task({ id: 't6', state: 'READY', updatedAt: iso(0), spec: { priority: 45, dependsOn: ['t5'] } }),
      task({ id: 't7', state: 'READY', updatedAt: iso(0), spec: { priority: 45, dependsOn: ['t5'] } }),
      task({ id: 't8', state: 'READY', updatedAt: iso(0), spec: { priority: 60, lane: 'pricey' } }),
      task({ id: 't9', state: 'READY', updatedAt: iso(0), spec: { priority: 50 } }),
      task({ id: 't10', state: 'DONE', updatedAt: iso(0), spec: { priority: 50, lane: 'pricey' } }),
    ];
    const runs = [
      run({
        id: 't10.1',
        taskId: 't10',
        lane: 'pricey',
        state: 'SUCCEEDED',
        durationMs: 1000,
        usage: { inputTokens: 1, outputTokens: 1, costUsd: 1.5 },
      }),
    ];
    const s = state({ tasks, runs, settings: { wip: { RUNNING: 64 }, agingPerMinute: 1 } });

    const mirror = new SchedulerMirror();
    mirror.sync(s, now);
    const picked = mirror.pick(now).picks.map((p) => p.id);

    const store = new PanelStore();
    store.snapshot(1, buildPanelView(s, '/r', { guards: [] }, now));
    const shown = store.list('ready').filter((id) => !store.tasks.get(id)!.wait);
    assert.deepEqual(shown, picked);
    // urgent t3; t1, t2 (younger, higher priority) and t9 tie at 60 (task number); t5 unblocks two (59); t8 pays its
    // lane cost (55); t4 lost its urgency.
    assert.deepEqual(picked, ['t3', 't1', 't2', 't9', 't5', 't8', 't4']);
    assert.equal(picked.length, 7, 't6 and t7 wait for t5');
    assert.deepEqual(store.list('ready').slice(7), ['t6', 't7']);
    // The score shown is the scheduler's score at that time.
    const t1 = store.tasks.get('t1')!;
    assert.equal(Math.round(store.score(t1, now)! * 1000) / 1000, 50 + 10);
  });
});

import * as assert from 'node:assert/strict';
import { buildPanelView } from '../../../src/core/panel/buildPanelView';
import { diffPanelView, indexView } from '../../../src/core/panel/diffPanelView';
import { HostMessage, type PanelView } from '../../../src/core/panel/panelProtocol';
import { PanelStore } from '../../../webview/panelStore';
import { T0, bigProject, iso, richProject, run, task } from '../../helpers/panelFixture';

const NOW = T0 + 300_000;

function storeView(store: PanelStore): PanelView {
  return { ...store.sections!, tasks: [...store.tasks.values()] };
}

describe('panel patches (diffPanelView + the webview store)', () => {
  it('an unchanged view gives an empty patch', () => {
    const { state, guards, trace } = richProject();
    const view = buildPanelView(state, '/r', { guards, trace }, NOW);
    const { empty, patch } = diffPanelView(
      indexView(view),
      buildPanelView(state, '/r', { guards, trace }, NOW + 5_000),
    );
    assert.equal(empty, true, JSON.stringify(patch).slice(0, 300));
  });

  it('a task moving to the next stage upserts that task and the sections it changed, nothing else', () => {
    const { state, guards, trace } = richProject();
    const before = buildPanelView(state, '/r', { guards, trace }, NOW);
    const t2 = state.tasks.find((t) => t.id === 't2')!;
    t2.state = 'VERIFYING';
    t2.updatedAt = iso(299_000);
    const { patch } = diffPanelView(indexView(before), buildPanelView(state, '/r', { guards, trace }, NOW));
    assert.deepEqual(
      patch.upsert.map((t) => t.id),
      ['t2'],
    );
    assert.deepEqual(patch.remove, []);
    assert.deepEqual(Object.keys(patch.sections).sort(), ['header', 'pipeline']);
  });

  it('a new guard verdict changes only the guards section; a removed task is a removal by id', () => {
    const { state, guards, trace } = richProject();
    const before = buildPanelView(state, '/r', { guards: guards.slice(0, 3), trace }, NOW);
    state.tasks = state.tasks.filter((t) => t.id !== 't10');
    const { patch } = diffPanelView(indexView(before), buildPanelView(state, '/r', { guards, trace }, NOW));
    assert.deepEqual(patch.upsert, []);
    assert.deepEqual(patch.remove, ['t10']);
    assert.deepEqual(Object.keys(patch.sections).sort(), ['guards', 'header']);
  });

  it('snapshot + patches applied by the webview store give the same view as a fresh snapshot', () => {
    const { state, guards, trace } = richProject();
    let view = buildPanelView(state, '/r', { guards: [], trace: [] }, NOW);
    let index = indexView(view);
    const store = new PanelStore();
    store.snapshot(1, view);
    let seq = 1;
    const steps: (() => void)[] = [
      () =>
        state.tasks.push(
          task({ id: 't11', state: 'READY', updatedAt: iso(299_000), spec: { title: 'new one', priority: 90 } }),
        ),
      () =>
        Object.assign(state.tasks.find((t) => t.id === 't5')!, {
          state: 'RUNNING',
          updatedAt: iso(299_500),
          lastRunId: 't5.1',
        }),
      () => state.runs.push(run({ id: 't5.1', taskId: 't5', state: 'RUNNING', startedAt: iso(299_500) })),
      () => (state.tasks = state.tasks.filter((t) => t.id !== 't1')),
      () => (state.breakers.anthropic!.state = 'half-open'),
    ];
    for (const [i, step] of steps.entries()) {
      step();
      view = buildPanelView(state, '/r', { guards: guards.slice(0, i), trace }, NOW);
      const diff = diffPanelView(index, view);
      index = diff.index;
      const message = HostMessage.parse({ type: 'patch', seq: seq + 1, base: seq, ...diff.patch });
      assert.equal(store.patch(message as never).stale, false);
      seq += 1;
    }
    const fresh = new PanelStore();
    fresh.snapshot(1, view);
    assert.deepEqual(
      storeView(store).tasks.sort((a, b) => a.n - b.n),
      view.tasks,
    );
    assert.deepEqual({ ...storeView(store), tasks: [] }, { ...view, tasks: [] });
    for (const tab of ['all', 'ready', 'active', 'blocked', 'failed'] as const)
      assert.deepEqual(store.list(tab), fresh.list(tab), tab);
  });

  it('a patch for another base is refused as stale (the webview asks for a snapshot)', () => {
    const { state } = richProject();
    const store = new PanelStore();
    store.snapshot(5, buildPanelView(state, '/r', { guards: [] }, NOW));
    assert.equal(store.patch({ type: 'patch', seq: 7, base: 6, upsert: [], remove: [], sections: {} }).stale, true);
    assert.equal(store.seq, 5);
  });

  it('one task changing in a 5,000-task queue is a one-task patch', () => {
    const state = bigProject(5_000);
    const index = indexView(buildPanelView(state, '/r', { guards: [] }, NOW));
    const t = state.tasks.find((x) => x.state === 'READY')!;
    t.spec.priority = 99;
    const times: number[] = [];
    let diff!: ReturnType<typeof diffPanelView>;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      diff = diffPanelView(index, buildPanelView(state, '/r', { guards: [] }, NOW));
      times.push(performance.now() - t0);
    }
    assert.deepEqual(
      diff.patch.upsert.map((x) => x.id),
      [t.id],
    );
    assert.ok(JSON.stringify(diff.patch).length < 2_000, 'the patch is small');
    console.log(
      `      5,000 tasks: rebuild + diff in ${Math.min(...times).toFixed(1)} ms (best of 5; first ${times[0]!.toFixed(1)} ms)`,
    );
  });
});

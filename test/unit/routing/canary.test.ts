import assert from 'node:assert/strict';
import { canaryReport } from '../../../src/core/routing/canaryReport';
import {
  DEFAULT_CANARY_THRESHOLDS,
  changeCanaryThresholds,
  rollbackCanary,
  setDefaultLaneRecorded,
  startCanary,
} from '../../../src/core/routing/routingChanges';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { emptyProjectState, type ProjectState } from '../../../src/core/store/projectState';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { Canary } from '../../../src/core/model/routingState';
import { makeTempDir } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';

const author = { who: 'ops@example.com', why: 'try the cheaper model' };

function registry(): LaneRegistry {
  const r = new LaneRegistry();
  for (const id of ['command', 'cheap']) r.register(scriptedLane(id, async () => ({ status: 'succeeded' })));
  return r;
}

describe('routing as data and canaries', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.cleanup());

  it('start and rollback are one recorded change each, and rollback restores exactly the previous state', async () => {
    const store = await ProjectStore.open(tmp.dir);
    const before = await store.read();
    const start = await startCanary(
      store,
      registry(),
      'cheap',
      { ...DEFAULT_CANARY_THRESHOLDS, holdBelow: 0.6 },
      author,
    );
    let state = await store.read();
    assert.equal(state.settings.defaultLane, 'cheap');
    assert.equal(state.routing.history.length, 1);
    assert.deepEqual(
      {
        kind: start.kind,
        who: start.who,
        why: start.why,
        from: start.previous.defaultLane,
        to: start.next.defaultLane,
      },
      { kind: 'canary-start', who: 'ops@example.com', why: 'try the cheaper model', from: 'command', to: 'cheap' },
    );
    assert.equal(state.routing.canary?.holdBelow, 0.6, 'thresholds are stored before any result exists');
    assert.equal(state.routing.canary?.baselineLane, 'command');

    const back = await rollbackCanary(store, { who: 'ops@example.com', why: 'completion too low' });
    state = await store.read();
    assert.equal(back.kind, 'canary-rollback');
    assert.equal(state.routing.history.length, 2);
    assert.deepEqual(state.settings, before.settings, 'settings exactly as before the canary');
    assert.equal(state.routing.canary, undefined);
    assert.deepEqual(back.next, start.previous);
  });

  it('thresholds change only as a recorded change with a reason; a second canary or a default-lane flip during one is refused', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await startCanary(store, registry(), 'cheap', DEFAULT_CANARY_THRESHOLDS, author);
    await assert.rejects(changeCanaryThresholds(store, { holdBelow: 0.5 }, { who: 'x', why: ' ' }), /needs a reason/);
    const change = await changeCanaryThresholds(
      store,
      { holdBelow: 0.5 },
      { who: 'lead@example.com', why: 'agreed with the team' },
    );
    assert.equal(change.previous.canary?.holdBelow, 0.7);
    assert.equal(change.next.canary?.holdBelow, 0.5);
    assert.deepEqual(
      (await store.read()).routing.history.map((c) => c.kind),
      ['canary-start', 'canary-thresholds'],
    );
    await assert.rejects(
      startCanary(store, registry(), 'command', DEFAULT_CANARY_THRESHOLDS, author),
      /already running/,
    );
    await assert.rejects(
      setDefaultLaneRecorded(store, registry(), 'command', author),
      /a canary of lane "cheap" is running/,
    );
    await assert.rejects(
      startCanary(store, registry(), 'nope', DEFAULT_CANARY_THRESHOLDS, author),
      /unknown lane "nope"/,
    );
  });

  it('the report computes its numbers from recorded runs: 9 of 25 canary vs 25 of 30 baseline is HOLD', () => {
    const start = Date.parse('2026-11-01T00:00:00Z');
    const canary: Canary = {
      lane: 'cheap',
      baselineLane: 'command',
      startedAt: new Date(start).toISOString(),
      ...DEFAULT_CANARY_THRESHOLDS,
    };
    const state = emptyProjectState();
    addRuns(state, 'command', 30, 25, start - 3 * 86_400_000, 0.1);
    addRuns(state, 'cheap', 25, 9, start + 3_600_000, 0.01);
    const report = canaryReport(state, canary, start + 2 * 86_400_000);
    assert.equal(report.canaryMetrics.tasks, 25);
    assert.equal(report.canaryMetrics.completed, 9);
    assert.equal(report.baselineMetrics.completed, 25);
    assert.equal(report.canaryMetrics.completionRate, 9 / 25);
    assert.ok(Math.abs(report.completionRatio! - 9 / 25 / (25 / 30)) < 1e-12);
    assert.equal(report.verdict, 'hold');
    assert.match(
      report.why,
      /completion 36\.0% \(9\/25\) is 43\.2% of the baseline's 83\.3% \(25\/30\); hold below 70\.0%/,
    );
    assert.ok(
      Math.abs(report.canaryMetrics.costPerCompletedUsd! - (25 * 0.01) / 9) < 1e-12,
      'cost per completed counts failed runs too',
    );
    assert.equal(report.canaryMetrics.topFailures[0]?.count, 16);
  });

  it('says "not enough data" below the minimum, and expand-candidate when completion holds and cost is low', () => {
    const start = Date.parse('2026-11-01T00:00:00Z');
    const canary: Canary = {
      lane: 'cheap',
      baselineLane: 'command',
      startedAt: new Date(start).toISOString(),
      ...DEFAULT_CANARY_THRESHOLDS,
    };
    const few = emptyProjectState();
    addRuns(few, 'command', 30, 25, start - 86_400_000, 0.1);
    addRuns(few, 'cheap', 4, 4, start + 1_000, 0.01);
    assert.equal(canaryReport(few, canary, start + 86_400_000).verdict, 'not-enough-data');
    const good = emptyProjectState();
    addRuns(good, 'command', 30, 25, start - 86_400_000, 0.1);
    addRuns(good, 'cheap', 20, 17, start + 1_000, 0.01);
    const report = canaryReport(good, canary, start + 86_400_000);
    assert.equal(report.verdict, 'expand-candidate', report.why);
  });
});

/** `total` tasks on `lane`, the first `done` of them DONE; one run each, `cost` each. */
function addRuns(state: ProjectState, lane: string, total: number, done: number, fromMs: number, cost: number): void {
  for (let i = 0; i < total; i++) {
    const id = `t${state.nextTaskNumber++}`;
    const started = new Date(fromMs + i * 60_000).toISOString();
    const ok = i < done;
    state.tasks.push({
      id,
      spec: { title: id, spec: '', files: [], dependsOn: [], priority: 50, lane },
      state: ok ? 'DONE' : 'FAILED',
      baseCommit: 'abc',
      createdAt: started,
      updatedAt: started,
      attempts: 1,
      generation: 0,
      lastRunId: `${id}.1`,
    } as ProjectState['tasks'][number]);
    state.runs.push({
      id: `${id}.1`,
      taskId: id,
      lane,
      attempt: 1,
      generation: 0,
      state: ok ? 'SUCCEEDED' : 'FAILED',
      branch: 'b',
      worktree: 'w',
      baseCommit: 'abc',
      startedAt: started,
      durationMs: 1_000 * (i + 1),
      usage: { inputTokens: 0, outputTokens: 0, costUsd: cost },
      ...(ok
        ? {}
        : { failureCode: 'verify-failed' as const, failureReason: 'acceptance command `npm test` exited with code 1' }),
    } as ProjectState['runs'][number]);
  }
}

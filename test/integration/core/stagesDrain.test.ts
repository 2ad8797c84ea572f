import assert from 'node:assert/strict';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { makeTempRepo } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';
import { until } from '../../helpers/until';

describe('stage WIP limits in a drain', function () {
  this.timeout(30_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  async function project() {
    const registry = new LaneRegistry();
    registry.register(scriptedLane('instant', async () => ({ status: 'succeeded' })));
    const p = await Project.open(repo.dir, { registry });
    await p.settings.update((s) => {
      s.wip = { RUNNING: 4, VERIFYING: 1, REVIEWING: 3, INTEGRATING: 1, AWAITING_CI: 4 };
      s.defaultLane = 'instant';
      s.integration.enabled = false;
    });
    return p;
  }

  it('runs whose lane finished wait for a VERIFYING slot in RUNNING; at most one verifies at a time', async () => {
    const p = await project();
    await p.tasks.addMany([1, 2, 3].map((i) => ({ title: `v${i}`, acceptance: 'sleep 0.8' })));
    const summary = await p.runQueue();
    const state = await p.state();
    assert.deepEqual(
      state.tasks.map((t) => t.state),
      ['DONE', 'DONE', 'DONE'],
    );
    assert.equal(summary.stats.peak.VERIFYING, 1);
    assert.equal(summary.stats.peak.RUNNING, 3);
    const waited = state.runs.filter((r) => r.stageWaitMs?.VERIFYING);
    assert.ok(waited.length >= 1, 'runs waited for the slot');
    const logs = await Promise.all(waited.map((r) => p.runs.log(r.id)));
    for (const log of logs)
      assert.ok(
        log.some((l) => /^waiting for a VERIFYING slot: 1\/1 taken \(t\d\)$/.test(String(l.message))),
        JSON.stringify(log),
      );
  });

  it('a saturated VERIFYING stage stops new starts while RUNNING has free slots (backpressure, recorded)', async () => {
    const p = await project();
    await p.tasks.add({ title: 'slow verify', acceptance: 'sleep 1' });
    const draining = p.runQueue();
    await until('the task to be VERIFYING', async () => (await p.state()).tasks[0]!.state === 'VERIFYING', 10_000);
    await p.tasks.add({ title: 'arrives while VERIFYING is full' });
    await draining;
    const state = await p.state();
    const [first, second] = state.runs;
    assert.ok(
      Date.parse(second!.startedAt) >= Date.parse(first!.endedAt!) - 5,
      `t2 started ${second!.startedAt}, after t1 left VERIFYING at ${first!.endedAt}`,
    );
    const trace = (await p.trace()).map((l) => `${l.kind}: ${l.message}`);
    assert.ok(
      trace.includes('backpressure: backpressure: VERIFYING is full (1/1), so no new run starts'),
      trace.join('\n'),
    );
  });
});

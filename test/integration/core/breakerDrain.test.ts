import assert from 'node:assert/strict';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { pipelineLines } from '../../../src/cli/format';
import { makeTempRepo } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';

describe('circuit breaker in a drain', function () {
  this.timeout(30_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('opens after repeated failures (no new starts on the lane, recorded), probes after the cooldown, closes on success', async () => {
    let calls = 0;
    const starts: number[] = [];
    const flaky = scriptedLane('flaky', async () => {
      starts.push(Date.now());
      calls += 1;
      return calls <= 2 ? { status: 'failed', failureReason: 'socket hang up' } : { status: 'succeeded' };
    });
    const registry = new LaneRegistry();
    registry.register(flaky);
    const project = await Project.open(repo.dir, { registry });
    await project.settings.update((s) => {
      s.breaker = { failures: 2, windowMs: 60_000, cooldownMs: 700, closeAfter: 1 };
      s.retryCaps.flaky = 1;
      s.integration.enabled = false;
    });
    await project.tasks.addMany(['t1', 't2', 't3', 't4'].map((title) => ({ title, lane: 'flaky' })));
    await project.runQueue({ concurrency: 1 });

    const state = await project.state();
    assert.deepEqual(
      state.tasks.map((t) => t.state),
      ['FAILED', 'FAILED', 'DONE', 'DONE'],
    );
    assert.ok(starts[2]! - starts[1]! >= 650, `the probe waited for the cooldown (${starts[2]! - starts[1]!} ms)`);
    assert.equal(state.breakers.flaky!.state, 'closed');
    assert.equal(state.breakers.flaky!.opened, 1);
    const trace = await project.trace();
    const lines = trace.map((l) => String(l.message ?? ''));
    assert.ok(
      lines.some((m) => /breaker on lane flaky OPEN: 2 × lane-exit in a row/.test(m)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((m) => /lane flaky gets no new run: breaker open since .* \(lane-exit\); probe after/.test(m)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((m) => /breaker on lane flaky closed after 1 successful probe/.test(m)),
      lines.join('\n'),
    );

    // status shows an open breaker
    const open = {
      ...state,
      breakers: {
        flaky: {
          state: 'open' as const,
          since: '2030-01-01T00:00:00.000Z',
          code: 'lane-exit',
          recent: [],
          successes: 0,
          opened: 1,
        },
      },
    };
    assert.deepEqual(pipelineLines(open), [
      'stages: RUNNING 0/4 · VERIFYING 0/2 · REVIEWING 0/3 · INTEGRATING 0/1 · AWAITING_CI 0/4',
      'breaker flaky: OPEN since 2030-01-01T00:00:00.000Z (lane-exit)',
    ]);
  });
});

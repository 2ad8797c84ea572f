import assert from 'node:assert/strict';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { editState } from '../../helpers/editState';
import { scriptedLane } from '../../helpers/fakeLanes';
import { makeTempRepo } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

/**
 * A drain running in this process looks at the queue again whenever the project changes it, whichever command did:
 * a task that can start because of the change starts while the runs already going carry on.
 */
describe('the drain wakes on every change the project makes', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  /** Task "hold" runs until released; every other task's title is recorded when its run starts. */
  async function project() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    const lane = scriptedLane('agent', async (input) => {
      started.push(input.task.title);
      if (input.task.title === 'hold') await held;
      return { status: 'succeeded' };
    });
    const registry = new LaneRegistry();
    registry.register(lane);
    const p = await Project.open(repo.dir, { registry });
    return { project: p, started, release };
  }

  it('retryTask: a retried task starts while another run is still going', async () => {
    const { project: p, started, release } = await project();
    await p.tasks.add({ title: 'hold', lane: 'agent' });
    const failed = await p.tasks.add({ title: 'again', lane: 'agent' });
    await editState(p.root, (s) => {
      Object.assign(s.tasks.find((t) => t.id === failed.id)!, { state: 'FAILED', failureReason: 'earlier' });
    });
    const drain = p.runQueue();
    try {
      await until('the held run to start', () => started.includes('hold'));
      await p.tasks.retry(failed.id);
      await until('the retried task to start while the held run goes on', () => started.includes('again'), 5_000);
    } finally {
      release();
      await drain;
    }
    assert.equal((await p.state()).tasks.find((t) => t.id === failed.id)!.state, 'DONE');
  });

  it('updateSettings: a raised RUNNING limit lets a waiting task start while the first run goes on', async () => {
    const { project: p, started, release } = await project();
    await p.settings.update((s) => {
      s.wip.RUNNING = 1;
    });
    await p.tasks.add({ title: 'hold', lane: 'agent' });
    await p.tasks.add({ title: 'waits for a slot', lane: 'agent' });
    const drain = p.runQueue();
    try {
      await until('the held run to start', () => started.includes('hold'));
      assert.deepEqual(started, ['hold'], 'one RUNNING slot: the second task waits');
      await p.settings.update((s) => {
        s.wip.RUNNING = 2;
      });
      await until('the second task to start in the new slot', () => started.includes('waits for a slot'), 5_000);
    } finally {
      release();
      await drain;
    }
  });
});

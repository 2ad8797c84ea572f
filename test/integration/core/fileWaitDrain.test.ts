import assert from 'node:assert/strict';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { FileWait } from '../../../src/core/model/fileWaits';
import { fileWaitLine, fileWaits } from '../../../src/core/model/fileWaits';
import { makeTempRepo } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';
import { until } from '../../helpers/until';

// A task that targets a file another task in progress holds waits for it. When the holder runs in the same process
// (the same VS Code window: each Send to Lane or Run Task is its own drain), the waiting task's drain waits for the
// holder's end and then starts it, and says so; it is never left READY with nothing to start it.
describe('a task waiting for a file held by another task', function () {
  this.timeout(30_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  async function project(release: Promise<void>) {
    const registry = new LaneRegistry();
    registry.register(
      scriptedLane('held', async (input) => {
        if (input.task.title.includes('[hold]')) await release;
        return { status: 'succeeded' };
      }),
    );
    const p = await Project.open(repo.dir, { registry });
    await p.settings.update((s) => {
      s.defaultLane = 'held';
      s.integration.enabled = false;
    });
    return p;
  }

  it("starts when the holder of this process ends, after naming the holder as this process's", async () => {
    let free!: () => void;
    const p = await project(new Promise<void>((r) => (free = r)));
    const holder = await p.tasks.add({ title: 'edit a [hold]', files: ['src/a.ts'] });
    const first = p.runQueue({ taskIds: [holder.id] });
    await until('the holder RUNNING', async () => (await p.state()).tasks[0]!.state === 'RUNNING', 10_000);
    const waiter = await p.tasks.add({ title: 'edit a too', files: ['src/a.ts'] });
    const told: FileWait[][] = [];
    let ended = false;
    const second = p.runQueue({ taskIds: [waiter.id], onWaitingForFiles: (w) => told.push(w) }).finally(() => {
      ended = true;
    });
    await until('the wait announced', async () => told.length > 0, 10_000);
    assert.deepEqual(told[0], [{ taskId: waiter.id, file: 'src/a.ts', heldBy: holder.id, here: true }]);
    assert.equal(
      fileWaitLine(told[0]![0]!, 'in this window'),
      `${waiter.id} waits for src/a.ts, held by ${holder.id} (running in this window); it starts when ${holder.id} ends`,
    );
    assert.equal(ended, false, 'the drain of the waiting task waits');
    assert.equal((await p.state()).tasks[1]!.state, 'READY');
    free();
    await first;
    const summary = await second;
    assert.deepEqual(
      summary.runs.map((r) => r.taskId),
      [waiter.id],
      'the waiting task ran once the file was free',
    );
    assert.deepEqual(
      (await p.state()).tasks.map((t) => t.state),
      ['DONE', 'DONE'],
    );
    assert.deepEqual(summary.fileWaits, []);
  });

  it('names a holder of another process as elsewhere, from its run record', async () => {
    const p = await project(Promise.resolve());
    await p.tasks.addMany([
      { title: 'holder', files: ['src/a.ts'] },
      { title: 'waiter', files: ['src/a.ts', 'src/b.ts'] },
    ]);
    const state = await p.state();
    const [t1, t2] = state.tasks;
    const running = { ...t1!, state: 'RUNNING' as const, lastRunId: `${t1!.id}.1` };
    const run = { id: `${t1!.id}.1`, owner: 'other-host/1/abc' } as never;
    const waits = fileWaits({ tasks: [running, t2!], runs: [run] }, p.owner);
    assert.deepEqual(waits, [{ taskId: t2!.id, file: 'src/a.ts', heldBy: t1!.id, here: false }]);
    assert.match(fileWaitLine(waits[0]!, 'in this window'), /in progress in another Switchyard process/);
  });
});

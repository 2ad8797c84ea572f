import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { createCommandLane } from '../../../plugins/command';
import { addTasks } from '../../helpers/finishedTasks';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('a drain on top of a history', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('runs new tasks: a DONE dependency in the history is met, a FAILED one blocks', async function () {
    this.timeout(120_000);
    const store = await ProjectStore.open(repo.dir);
    const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: repo.dir })).stdout.trim();
    await store.update((s) => {
      addTasks(s, 1, 40, 'DONE', head);
      addTasks(s, 41, 41, 'FAILED', head);
      addTasks(s, 42, 80, 'DONE', head);
    });
    const file = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
    assert.ok(!file.tasks.some((t: { id: string }) => t.id === 't5' || t.id === 't41'), 't5 and t41 are history');
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    const project = await Project.open(repo.dir, { registry, hookCommand: null });
    try {
      await project.settings.update((s) => {
        s.laneSettings.command = { command: 'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"' };
      });
      const [free, afterDone, afterFailed] = await project.tasks.addMany([
        { title: 'free' },
        { title: 'after a done one', dependsOn: ['t5'] },
        { title: 'after a failed one', dependsOn: ['t41'] },
      ]);
      assert.equal(afterFailed!.state, 'BLOCKED', 'blocked at once by the FAILED dependency in the history');
      await project.runQueue();
      const state = await project.state();
      const stateOf = (id: string) => state.tasks.find((t) => t.id === id)?.state;
      assert.equal(stateOf(free!.id), 'DONE');
      assert.equal(stateOf(afterDone!.id), 'DONE');
      assert.equal(stateOf(afterFailed!.id), 'BLOCKED');
      assert.equal(state.tasks.length, 83);
      assert.equal(new Set(state.tasks.map((t) => t.id)).size, 83, 'each task once');
      // A retry of the FAILED one (from the history) unblocks its dependent, and both run.
      await project.tasks.retry('t41');
      await project.settings.update((s) => {
        s.laneSettings.command = { command: 'echo "$SWITCHYARD_TASK_ID" > "g-$SWITCHYARD_TASK_ID.txt"' };
      });
      await project.runQueue();
      const after = await (await ProjectStore.open(repo.dir)).read();
      const t41 = after.tasks.find((t) => t.id === 't41');
      assert.equal(t41?.state, 'DONE', `${t41?.failureReason}`);
      assert.equal(after.tasks.find((t) => t.id === afterFailed!.id)?.state, 'DONE');
      assert.equal(after.tasks.length, 83);
    } finally {
      await project.close();
    }
  });
});

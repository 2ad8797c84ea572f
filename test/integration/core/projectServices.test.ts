import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { isSwitchyardError } from '../../../src/core/errors';
import { LaneRegistry } from '../../../src/core/project/projectOptions';
import { Project } from '../../../src/core/project/project';
import { stateFilePath } from '../../../src/core/project/stateFilePath';
import { createCommandLane } from '../../../plugins/command';
import { makeTempRepo } from '../../helpers/tempRepo';

function openProject(dir: string): Promise<Project> {
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  return Project.open(dir, { registry, parentEnv: { PATH: process.env.PATH, HOME: process.env.HOME } });
}

describe("the façade's services (Project.tasks, .settings, .routing)", () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('tells listeners after every change a service makes, and after no read', async () => {
    const project = await openProject(repo.dir);
    let changes = 0;
    project.onDidChange(() => changes++);
    const counted = async (what: string, change: () => Promise<unknown>, expected: number) => {
      const before = changes;
      await change();
      assert.equal(changes - before, expected, `${what}: ${changes - before} change event(s)`);
    };
    const [a, b] = await project.tasks.addMany([{ title: 'one' }, { title: 'two', dependsOn: [] }]);
    assert.equal(changes, 1, 'adding a batch is one change');
    await counted('setLane', () => project.tasks.setLane(a!.id, 'command'), 1);
    await counted('cancel', () => project.tasks.cancel(b!.id), 1);
    await counted('retry', () => project.tasks.retry(b!.id), 1);
    await counted('settings.update', () => project.settings.update((s) => void (s.review.enabled = false)), 1);
    await counted(
      'settings.edit',
      () => project.settings.edit({ key: 'review.enabled', text: 'false', local: true }),
      1,
    );
    await counted('routing.setDefaultLane', () => project.routing.setDefaultLane('command', 'test'), 1);
    // Reads change nothing and say nothing.
    await counted(
      'reads',
      async () => {
        await project.tasks.get(a!.id);
        await project.tasks.find([a!.id]);
        await project.settings.read();
        await project.settings.layers();
        await project.lanes.statuses();
        await project.routing.canaryReport();
      },
      0,
    );
  });

  it('tasks.get finds a task wherever it is stored, and names the tasks there are for an unknown id', async () => {
    const project = await openProject(repo.dir);
    // More finished tasks than the working set keeps (20): the oldest go to the history.
    const tasks = await project.tasks.addMany(Array.from({ length: 24 }, (_, i) => ({ title: `task ${i}` })));
    for (const task of tasks) await project.tasks.cancel(task.id);
    const oldest = tasks[0]!;
    const working = JSON.parse(await readFile(stateFilePath(repo.dir), 'utf8')) as { tasks: { id: string }[] };
    assert.ok(working.tasks.length > 0, 'the working set holds the newest finished tasks');
    assert.ok(!working.tasks.some((t) => t.id === oldest.id), 'the oldest canceled task is only in the history');
    const found = await project.tasks.get(oldest.id);
    assert.equal(found.id, oldest.id);
    assert.equal(found.state, 'CANCELED');
    await assert.rejects(project.tasks.get('t999'), (error: unknown) => {
      assert.ok(isSwitchyardError(error) && error.code === 'unknown-task', String(error));
      assert.match((error as Error).message, /unknown task "t999"; tasks: t1, t2, /);
      return true;
    });
  });
});

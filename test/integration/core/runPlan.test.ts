import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../../../src/core/git/gitExec';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { scriptedLane } from '../../helpers/fakeLanes';
import { makeTempRepo } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

const tip = async (dir: string, branch: string) =>
  (await git(dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], [0, 1])).stdout.trim() || undefined;

/** A run goes by the settings its claim read, whatever is edited while it runs; the next run goes by the new ones. */
describe("a run's plan is fixed at its claim", () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('a target branch changed while the lane runs: this run merges where its claim said, the next one into the new', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: string[] = [];
    const lane = scriptedLane('agent', async (input) => {
      started.push(input.task.title);
      await writeFile(join(input.workspaceDir, `${input.task.title}.txt`), 'work\n');
      if (input.task.title === 'first') await held;
      return { status: 'succeeded' };
    });
    const registry = new LaneRegistry();
    registry.register(lane);
    const project = await Project.open(repo.dir, { registry });
    await project.settings.update((s) => {
      s.wip.RUNNING = 1;
    });
    const first = await project.tasks.add({ title: 'first', lane: 'agent' });
    const drain = project.runQueue();
    try {
      await until('the first run to start', () => started.includes('first'));
      await project.settings.update((s) => {
        s.integration.targetBranch = 'elsewhere';
      });
      await project.tasks.add({ title: 'second', lane: 'agent' });
    } finally {
      release();
      await drain;
    }
    const state = await project.state();
    const byTitle = (title: string) => state.tasks.find((t) => t.spec.title === title)!;
    assert.equal(byTitle('first').state, 'DONE');
    assert.equal(byTitle('first').integration?.branch, 'switchyard/integration', 'the first run kept its claim');
    assert.equal(byTitle('second').integration?.branch, 'elsewhere', 'the next run went by the new setting');
    assert.ok(await tip(repo.dir, 'switchyard/integration'));
    assert.equal(first.id, byTitle('first').id);
  });
});

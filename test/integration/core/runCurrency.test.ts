import assert from 'node:assert/strict';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { editState } from '../../helpers/editState';
import { scriptedLane } from '../../helpers/fakeLanes';
import { makeTempRepo } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

/**
 * Whether a run is still current is one rule (its task not canceled, its input unchanged), checked whenever the store
 * changes, whoever changed it: a run that is no longer current stops, and its end is kept as stale.
 */
describe('a run that is no longer current stops, told by the store, not by a poll', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  /** A lane whose first run goes on until its signal aborts (and says when); later runs succeed at once. */
  async function drainingProject() {
    let abortedAt: number | undefined;
    let running = false;
    const lane = scriptedLane('agent', async (input) => {
      if (running) return { status: 'succeeded' };
      running = true;
      await new Promise<void>((resolve) => {
        if (input.signal.aborted) resolve();
        input.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      abortedAt = Date.now();
      return { status: 'failed', failureReason: 'stopped' };
    });
    const registry = new LaneRegistry();
    registry.register(lane);
    const project = await Project.open(repo.dir, { registry });
    const task = await project.tasks.add({ title: 'long work', lane: 'agent' });
    const drain = project.runQueue();
    await until('the lane to run', () => running);
    return { project, task, drain, abortedAt: () => abortedAt };
  }

  it('canceled by another process (another window, a terminal): the lane is stopped and the run kept as CANCELED', async () => {
    const { project, task, drain, abortedAt } = await drainingProject();
    const other = await Project.open(repo.dir, { registry: new LaneRegistry() });
    const canceledAt = Date.now();
    await other.tasks.cancel(task.id);
    await until('the lane to be stopped', () => abortedAt() !== undefined, 10_000);
    await drain;
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'CANCELED');
    assert.equal(state.runs[0]!.state, 'CANCELED');
    assert.equal(state.runs[0]!.failureCode, 'canceled');
    assert.ok(abortedAt()! >= canceledAt);
  });

  it("the task's input changed under the run: the lane is stopped and the task goes back for its new input", async () => {
    const { project, task, drain, abortedAt } = await drainingProject();
    await editState(project.root, (s) => {
      s.tasks.find((t) => t.id === task.id)!.spec.spec = 'a different job';
    });
    // Before, only a cancel stopped a run: one whose input changed ran to its end, and its result was then dropped.
    await until('the lane to be stopped', () => abortedAt() !== undefined, 10_000);
    await drain;
    const state = await project.state();
    const [stopped, next] = state.runs;
    assert.equal(stopped!.state, 'CANCELED');
    assert.equal(next!.attempt, 1, 'the stopped run spent no attempt');
    assert.equal(state.tasks[0]!.state, 'DONE', 'a new run did the new input');
  });
});

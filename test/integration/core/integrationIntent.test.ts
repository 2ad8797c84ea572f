import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../../../src/core/git/gitExec';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { editState } from '../../helpers/editState';
import { scriptedLane } from '../../helpers/fakeLanes';
import { makeTempRepo } from '../../helpers/tempRepo';

const TARGET = 'switchyard/integration';

/**
 * A run whose owner (another host) stopped between recording the move of the target branch (the run's
 * `integrationIntent`) and confirming it: whoever finds it reads the branch to learn whether the move happened.
 */
describe('integration: a move of the target branch is recorded before git makes it', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  async function integratingRun(leaseExpiresAt: string) {
    let calls = 0;
    const lane = scriptedLane('agent', async (input) => {
      calls++;
      await writeFile(join(input.workspaceDir, `attempt-${calls}.txt`), 'work\n');
      return { status: 'succeeded' };
    });
    const registry = new LaneRegistry();
    registry.register(lane);
    const project = await Project.open(repo.dir, { registry });
    const task = await project.tasks.add({ title: 'merge me', lane: 'agent' });
    const worktree = join(repo.dir, '.switchyard', 'worktrees', 't1.1');
    await git(repo.dir, ['worktree', 'add', '-b', 'switchyard/t1/1', worktree, task.baseCommit]);
    await writeFile(join(worktree, 'lost.txt'), 'the lost owner made this\n');
    await git(worktree, ['add', '-A']);
    await git(worktree, ['commit', '-m', 'the lost run']);
    const head = (await git(worktree, ['rev-parse', 'HEAD'])).stdout.trim();
    // What integrateRun commits onto the target: the run's tree, its parent the task's base.
    const tree = (await git(repo.dir, ['rev-parse', `${head}^{tree}`])).stdout.trim();
    const to = (await git(repo.dir, ['commit-tree', tree, '-p', task.baseCommit, '-m', 'merge me'])).stdout.trim();
    await editState(project.root, (s) => {
      Object.assign(s.tasks[0]!, { state: 'INTEGRATING', attempts: 1, lastRunId: 't1.1' });
      s.runs.push({
        id: 't1.1',
        taskId: 't1',
        lane: 'agent',
        attempt: 1,
        generation: 0,
        state: 'RUNNING',
        branch: 'switchyard/t1/1',
        worktree,
        baseCommit: task.baseCommit,
        headCommit: head,
        startedAt: new Date(Date.now() - 120_000).toISOString(),
        owner: 'another-host/4242/abc',
        integrationIntent: { branch: TARGET, to, at: new Date(Date.now() - 60_000).toISOString() },
      });
    });
    await mkdir(join(repo.dir, '.switchyard', 'runs', 't1.1'), { recursive: true });
    await writeFile(
      join(repo.dir, '.switchyard', 'runs', 't1.1', 'lease.json'),
      JSON.stringify({ owner: 'another-host/4242/abc', heartbeatAt: leaseExpiresAt, expiresAt: leaseExpiresAt }),
    );
    return { project, to, calls: () => calls };
  }

  const expired = () => new Date(Date.now() - 60_000).toISOString();

  it('the branch moved before the owner stopped: the run is finished as merged, nothing runs again', async () => {
    const { project, to, calls } = await integratingRun(expired());
    await git(repo.dir, ['update-ref', `refs/heads/${TARGET}`, to, '']);
    const summary = await project.runQueue();
    assert.deepEqual(summary.recovered, [`task t1 DONE (merged into ${TARGET} as ${to.slice(0, 12)})`]);
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE');
    assert.deepEqual(
      { commit: state.tasks[0]!.integration?.commit, runId: state.tasks[0]!.integration?.runId },
      { commit: to, runId: 't1.1' },
    );
    assert.equal(state.runs.length, 1, 'no new attempt');
    assert.equal(state.runs[0]!.integrationIntent, undefined, 'the intent is resolved');
    assert.deepEqual(state.runs[0]!.integration, { branch: TARGET, commit: to });
    assert.equal(calls(), 0);
  });

  it('the branch never moved: the intent is dropped and the task is retried as interrupted', async () => {
    const { project, to } = await integratingRun(expired());
    await project.runQueue();
    const state = await project.state();
    const [lost, next] = state.runs;
    assert.equal(lost!.failureCode, 'interrupted');
    assert.equal(lost!.integrationIntent, undefined);
    assert.equal(lost!.integration, undefined, 'the lost run merged nothing');
    assert.equal(state.tasks[0]!.state, 'DONE');
    assert.equal(state.tasks[0]!.integration?.runId, next!.id);
    assert.notEqual(state.tasks[0]!.integration?.commit, to);
    const files = (await git(repo.dir, ['ls-tree', '--name-only', `refs/heads/${TARGET}`])).stdout;
    assert.match(files, /attempt-1\.txt/, 'the next attempt is on the target');
  });

  it('a task whose merge is recorded and under way can no longer be canceled', async () => {
    const { project } = await integratingRun(new Date(Date.now() + 60_000).toISOString());
    await assert.rejects(project.tasks.cancel('t1'), /being merged into switchyard\/integration .* too late to cancel/);
    assert.equal((await project.state()).tasks[0]!.state, 'INTEGRATING');
  });
});

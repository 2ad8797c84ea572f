import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { LaneRunInput } from '../../../src/api';
import { makeTempRepo } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';
import { editState } from '../../helpers/editState';

describe("leases: a lost worker's run is handed off", () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  async function lostRun(taskState: 'RUNNING' | 'VERIFYING', leaseExpiresAt: string) {
    const seen: LaneRunInput[] = [];
    const lane = scriptedLane(
      'agent',
      async (input) => {
        seen.push(input);
        return { status: 'succeeded' };
      },
      { defaultRetryCap: 3, capabilities: { resume: 'run', streaming: true, tools: false } },
    );
    const registry = new LaneRegistry();
    registry.register(lane);
    const project = await Project.open(repo.dir, { registry });
    const task = await project.tasks.add({ title: 'handoff', lane: 'agent' });
    const worktree = join(repo.dir, '.switchyard', 'worktrees', 't1.1');
    await repo.git('worktree', 'add', '-b', 'switchyard/t1/1', worktree, task.baseCommit);
    await writeFile(join(worktree, 'checkpoint.txt'), 'half of the work\n');
    await editState(project.root, (s) => {
      Object.assign(s.tasks[0]!, { state: taskState, attempts: 1, lastRunId: 't1.1' });
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
        startedAt: new Date(Date.now() - 120_000).toISOString(),
        owner: 'another-host/4242/abc',
        sessionId: 'sess-1',
      });
    });
    await mkdir(join(repo.dir, '.switchyard', 'runs', 't1.1'), { recursive: true });
    await writeFile(
      join(repo.dir, '.switchyard', 'runs', 't1.1', 'lease.json'),
      JSON.stringify({ owner: 'another-host/4242/abc', heartbeatAt: leaseExpiresAt, expiresAt: leaseExpiresAt }),
    );
    return { project, seen };
  }

  for (const taskState of ['RUNNING', 'VERIFYING'] as const) {
    it(`an expired lease (task ${taskState}): the run fails as interrupted, its work is salvaged, and the next attempt resumes from it`, async () => {
      const { project, seen } = await lostRun(taskState, new Date(Date.now() - 60_000).toISOString());
      const summary = await project.runQueue();
      assert.match(
        summary.recovered[0]!,
        /task t1 back to READY: run t1\.1 was interrupted, a host fault that spends no attempt/,
      );
      const state = await project.state();
      const [lost, next] = state.runs;
      assert.equal(lost!.state, 'FAILED');
      assert.equal(lost!.failureCode, 'interrupted');
      assert.match(
        lost!.failureReason!,
        /another-host\/4242\/abc.*stopped before the run finished \(its lease expired/,
      );
      assert.equal(lost!.salvage?.branch, 'switchyard/salvage/t1.1');
      assert.deepEqual(next!.resumeFrom, {
        runId: 't1.1',
        sessionId: 'sess-1',
        sessionCwd: lost!.worktree,
        start: 'earlier-work',
        salvageBranch: 'switchyard/salvage/t1.1',
        workBranch: 'switchyard/salvage/t1.1',
        commit: lost!.salvage!.commit,
      });
      assert.deepEqual(seen[0]!.resume, {
        runId: 't1.1',
        sessionId: 'sess-1',
        sessionCwd: lost!.worktree,
        salvageBranch: 'switchyard/salvage/t1.1',
        start: 'earlier-work',
        workBranch: 'switchyard/salvage/t1.1',
      });
      assert.equal(next!.attempt, 1, 'the interruption spent no attempt');
      assert.match(next!.retryReason!, /^follows an interruption of t1\.1 \(not counted as an attempt\)/);
      assert.equal(state.tasks[0]!.state, 'DONE');
      assert.match(
        await project.runs.diff(next!.id),
        /checkpoint\.txt/,
        'the next attempt started from the checkpoint',
      );
    });
  }

  it('a live lease held by another host is left alone', async () => {
    const { project, seen } = await lostRun('RUNNING', new Date(Date.now() + 60_000).toISOString());
    const summary = await project.runQueue();
    assert.deepEqual(summary.recovered, []);
    assert.equal(seen.length, 0);
    assert.equal((await project.state()).runs[0]!.state, 'RUNNING');
  });
});

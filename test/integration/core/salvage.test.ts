import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { LaneRunInput } from '../../../src/api';
import { makeTempRepo } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';
import { editState } from '../../helpers/editState';

describe('salvage and run-level resume', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it("a failed run's partial work is salvaged on a branch; the next attempt starts from it and resumes the lane session", async () => {
    const inputs: LaneRunInput[] = [];
    const lane = scriptedLane(
      'half',
      async (input) => {
        inputs.push(input);
        input.emit({ type: 'session', sessionId: `session-${input.attempt.attempt}` });
        const file = join(input.workspaceDir, 'partial.txt');
        const before = existsSync(file) ? await readFile(file, 'utf8') : '';
        await writeFile(file, `${before}attempt ${input.attempt.attempt}\n`);
        return input.attempt.attempt === 1
          ? { status: 'failed', failureReason: 'stream closed mid-run' }
          : { status: 'succeeded' };
      },
      { defaultRetryCap: 2, capabilities: { resume: 'run', streaming: true, tools: true } },
    );
    const registry = new LaneRegistry();
    registry.register(lane);
    const project = await Project.open(repo.dir, { registry });
    await project.tasks.add({ title: 'half', lane: 'half' });
    await project.runQueue();
    const state = await project.state();
    const [first, second] = state.runs;
    assert.deepEqual(first!.salvage && { branch: first!.salvage.branch, files: first!.salvage.files }, {
      branch: 'switchyard/salvage/t1.1',
      files: 1,
    });
    assert.equal((await repo.git('rev-parse', 'switchyard/salvage/t1.1')).trim(), first!.salvage!.commit);
    assert.equal(first!.sessionId, 'session-1');
    assert.deepEqual(inputs[1]!.resume, {
      runId: 't1.1',
      sessionId: 'session-1',
      sessionCwd: first!.worktree,
      salvageBranch: 'switchyard/salvage/t1.1',
      start: 'earlier-work',
      workBranch: 'switchyard/salvage/t1.1',
    });
    assert.equal(state.tasks[0]!.state, 'DONE');
    assert.match(
      await project.runs.diff(second!.id),
      /\+attempt 1\n\+attempt 2/,
      'the second attempt built on the salvaged work',
    );
  });

  it("an interrupted run's uncommitted work is salvaged before the task is retried", async () => {
    const seen: LaneRunInput['resume'][] = [];
    const lane = scriptedLane(
      'plain',
      async (input) => {
        seen.push(input.resume);
        return { status: 'succeeded' };
      },
      { defaultRetryCap: 3 },
    );
    const registry = new LaneRegistry();
    registry.register(lane);
    const project = await Project.open(repo.dir, { registry });
    const task = await project.tasks.add({ title: 'crashed', lane: 'plain' });
    const worktree = join(repo.dir, '.switchyard', 'worktrees', 't1.1');
    await repo.git('worktree', 'add', '-b', 'switchyard/t1/1', worktree, task.baseCommit);
    await mkdir(join(worktree, 'src'), { recursive: true });
    await writeFile(join(worktree, 'src', 'half-done.ts'), 'export const x = 1;\n');
    await editState(project.root, (s) => {
      const t = s.tasks[0]!;
      Object.assign(t, { state: 'RUNNING', attempts: 1, lastRunId: 't1.1' });
      s.runs.push({
        id: 't1.1',
        taskId: 't1',
        lane: 'plain',
        attempt: 1,
        generation: 0,
        state: 'RUNNING',
        branch: 'switchyard/t1/1',
        worktree,
        baseCommit: t.baseCommit,
        startedAt: new Date().toISOString(),
        owner: `${hostname()}/999999/dead`,
      });
    });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.runs[0]!.failureCode, 'interrupted');
    assert.equal(state.runs[0]!.salvage?.branch, 'switchyard/salvage/t1.1');
    assert.match(await project.runs.diff('t1.1'), /half-done\.ts/);
    assert.deepEqual(seen[0], {
      runId: 't1.1',
      sessionId: undefined,
      sessionCwd: undefined,
      salvageBranch: 'switchyard/salvage/t1.1',
      start: 'earlier-work',
      workBranch: 'switchyard/salvage/t1.1',
    });
    assert.match(await project.runs.diff('t1.2'), /half-done\.ts/, 'the retry starts from the salvaged work');
  });
});

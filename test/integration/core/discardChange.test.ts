import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createCommandLane } from '../../../plugins/command';
import { isSwitchyardError } from '../../../src/core/errors';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { makeTempRepo } from '../../helpers/tempRepo';

/**
 * Discard Change (the diff editor's Discard on a DONE task): the task is marked discarded, its run branches and
 * worktrees go, Merge refuses it afterwards; a change that has landed is not discarded.
 */
describe('discarding a DONE task’s change (real git)', function () {
  this.timeout(60_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let project: Project;

  beforeEach(async () => {
    repo = await makeTempRepo();
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    project = await Project.open(repo.dir, {
      registry,
      hookCommand: null,
      parentEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'printf "%s\\n" "$SWITCHYARD_TASK_ID" >> src/a.txt' };
    });
  });
  afterEach(async () => {
    await project.close();
    await repo.cleanup();
  });

  const branches = async (): Promise<string[]> =>
    (await repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/switchyard/')).split('\n').filter(Boolean);

  it('marks the task discarded, deletes its run branch and worktree; Merge then refuses it', async () => {
    const kept = await project.tasks.add({ title: 'Keep me', files: ['src/a.txt'] });
    const dropped = await project.tasks.add({ title: 'Drop me', files: ['src/b.txt'] });
    await project.runQueue();
    const before = await project.state();
    assert.deepEqual(
      before.tasks.map((t) => t.state),
      ['DONE', 'DONE'],
    );
    // Its last run: the one whose change the diff editor shows.
    const run = before.runs.find((r) => r.id === before.tasks.find((t) => t.id === dropped.id)!.lastRunId)!;
    assert.ok((await branches()).includes(run.branch));
    const main = (await repo.git('rev-parse', 'main')).trim();

    // Both tasks append to src/a.txt and run side by side: the second one's merge may conflict and take a second
    // attempt, so the dropped task has one run branch or two. Discard deletes every one of them.
    const own = before.runs.filter((r) => r.taskId === dropped.id).map((r) => r.branch);
    const { task, lines } = await project.branches.discard(run.id);
    assert.equal(task.state, 'DONE');
    assert.equal(task.discarded?.runId, run.id);
    assert.deepEqual(
      lines,
      own.map((branch) => `branch ${branch} of ${dropped.id} deleted`),
    );
    for (const branch of own) assert.ok(!(await branches()).includes(branch), `${branch} is gone`);
    assert.ok(
      (await branches()).some((b) => b.startsWith(`switchyard/${kept.id}/`)),
      "the other task's stays",
    );
    assert.ok(!run.worktree || !existsSync(run.worktree), 'no worktree left');
    const stored = (await project.state()).tasks.find((t) => t.id === dropped.id)!;
    assert.deepEqual(stored.discarded, task.discarded, 'recorded');

    await assert.rejects(project.branches.merge(dropped.id), (e: unknown) => {
      assert.ok(isSwitchyardError(e, 'invalid-input'));
      assert.match(e.message, /change was discarded/);
      return true;
    });
    assert.equal((await repo.git('rev-parse', 'main')).trim(), main, 'main did not move');
    const again = await project.branches.discard(dropped.id);
    assert.deepEqual(again.task.discarded, task.discarded, 'discarding twice changes nothing');
  });

  it('refuses a change that was merged, and a task that is not DONE', async () => {
    const merged = await project.tasks.add({ title: 'Merge me', files: ['src/a.txt'] });
    await project.runQueue();
    await project.branches.merge(merged.id);
    await assert.rejects(project.branches.discard(merged.id), /was merged into main .*revert that commit instead/);
    const ready = await project.tasks.add({ title: 'Not yet' });
    await assert.rejects(project.branches.discard(ready.id), /has no run yet|is READY/);
  });
});

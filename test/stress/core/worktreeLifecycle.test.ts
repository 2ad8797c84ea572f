import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { diffPath } from '../../../src/core/store/runFiles';
import { WORKTREES_DIR } from '../../../src/core/store/runPaths';
import { measureWorktreeUsage } from '../../../src/core/workspace/worktreeUsage';
import { createCommandLane } from '../../../plugins/command';
import { editState } from '../../helpers/editState';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

async function openProject(dir: string, command: string): Promise<Project> {
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  const project = await Project.open(dir, { registry, hookCommand: null });
  await project.settings.update((s) => {
    s.laneSettings.command = { command };
    s.retryBackoff.initialMs = 0;
    s.retryCaps.command = 1;
  });
  return project;
}

async function worktreeFolders(dir: string): Promise<string[]> {
  return readdir(join(dir, WORKTREES_DIR)).catch(() => []);
}

/** The paths `git worktree list` names besides the main checkout. */
async function gitWorktrees(repo: Awaited<ReturnType<typeof makeTempRepo>>): Promise<string[]> {
  const out = await repo.git('worktree', 'list', '--porcelain');
  return out
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .slice(1);
}

describe('worktree lifecycle', function () {
  this.timeout(600_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('after 200 integrated tasks no worktree of theirs is left; their branches and diffs stay', async () => {
    const project = await openProject(repo.dir, 'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"');
    await project.settings.update((s) => {
      s.wip.VERIFYING = 4;
    });
    await project.tasks.addMany(Array.from({ length: 200 }, (_, i) => ({ title: `one file ${i}` })));
    await project.runQueue({ concurrency: 4 });
    const state = await project.state();
    const notDone = state.tasks.filter((t) => t.state !== 'DONE');
    assert.deepEqual(
      notDone.map((t) => `${t.id} ${t.state} ${t.failureReason}`),
      [],
    );
    assert.equal(state.runs.filter((r) => r.integration).length, 200);
    assert.deepEqual(await gitWorktrees(repo), [], 'git worktree list names only the main checkout');
    assert.deepEqual(await worktreeFolders(repo.dir), [], '.switchyard/worktrees/ is empty');
    const branches = (await repo.git('branch', '--list', 'switchyard/*', '--format=%(refname:short)'))
      .split('\n')
      .filter(Boolean);
    for (const run of state.runs) {
      assert.ok(branches.includes(run.branch), `branch ${run.branch} stays`);
      assert.match(await readFile(diffPath(repo.dir, run.id), 'utf8'), new RegExp(`f-${run.taskId}\\.txt`));
    }
    const files = (await repo.git('ls-tree', '--name-only', 'switchyard/integration')).split('\n');
    assert.equal(files.filter((f) => f.startsWith('f-')).length, 200, 'every change is on the target branch');
    // The diff of a run without a worktree is still shown.
    const first = state.runs[0]!;
    assert.equal(existsSync(first.worktree), false);
    assert.match(await project.runs.diff(first.id), /\+t1\b/);
    const status = await runCli(['status', '--json'], { cwd: repo.dir });
    assert.equal(status.code, 0, status.err);
    assert.equal(JSON.parse(status.out).worktrees.count, 0);
  });

  it("keeps a failed run's worktree, then prunes it at the next drain once keepFailedDays have passed", async () => {
    const project = await openProject(repo.dir, 'echo partial > partial.txt; exit 3');
    await project.tasks.add({ title: 'fails' });
    await project.runQueue();
    let state = await project.state();
    const failed = state.runs[0]!;
    assert.equal(failed.state, 'FAILED');
    assert.ok(failed.salvage, 'the partial work is salvaged');
    assert.equal(existsSync(join(failed.worktree, 'partial.txt')), true, 'the failed worktree is kept');

    // Status shows the worktree and its size (measured by the drain).
    const usage = await project.worktrees.usage();
    assert.equal(usage.count, 1);
    assert.ok(usage.bytes !== undefined && usage.bytes > 0, JSON.stringify(usage));
    const status = await runCli(['status'], { cwd: repo.dir });
    assert.match(status.out, /worktrees: 1 \(\d+(\.\d)? (kB|MB)\)/);

    // A tree larger than the measurement's cap has an unknown size: absent, not 0, and no older figure stands in.
    assert.deepEqual(await measureWorktreeUsage(repo.dir, 3), { count: 1 });
    assert.deepEqual(await project.worktrees.usage(), { count: 1 });
    assert.match((await runCli(['status'], { cwd: repo.dir })).out, /worktrees: 1 \(size unknown\)/);

    // Another drain within the default 7 days keeps it…
    await project.runQueue();
    assert.equal(existsSync(failed.worktree), true);
    // …one whose end lies 8 days back is pruned.
    await editState(repo.dir, (s) => {
      s.runs[0]!.endedAt = new Date(Date.now() - 8 * 24 * 60 * 60_000).toISOString();
    });
    await project.runQueue();
    assert.equal(existsSync(failed.worktree), false, 'pruned after keepFailedDays');
    assert.deepEqual(await gitWorktrees(repo), []);
    state = await project.state();
    assert.equal(state.runs[0]!.branch, failed.branch);
    assert.ok((await repo.git('branch', '--list', failed.branch)).trim(), 'its branch stays');
    assert.match(await project.runs.diff(failed.id), /partial\.txt/, 'its diff stays');
    const promoted = await project.worktrees.promoteSalvage(failed.id);
    assert.equal(promoted.action, 'created');
    assert.equal((await repo.git('show', `${promoted.branch}:partial.txt`)).trim(), 'partial');
    const after = await project.worktrees.usage();
    assert.equal(after.count, 0);
    assert.equal(after.bytes, 0, 'the drain measured again after pruning');
  });

  it('with keepFailedDays 0, the next drain removes the worktree of a failed run', async () => {
    const project = await openProject(repo.dir, 'echo partial > partial.txt; exit 3');
    await project.tasks.add({ title: 'fails' });
    await project.runQueue();
    const failed = (await project.state()).runs[0]!;
    assert.equal(existsSync(failed.worktree), true);
    await project.settings.update((s) => {
      s.worktree.keepFailedDays = 0;
    });
    await project.runQueue();
    assert.equal(existsSync(failed.worktree), false);
    assert.deepEqual(await worktreeFolders(repo.dir), []);
  });

  it("the next drain removes an integrated run's worktree that its process left behind", async () => {
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    // A process that recorded the integration but never removed the worktree (as one killed right after would).
    const left = await Project.open(repo.dir, { registry, hookCommand: null, keepIntegratedWorktrees: true });
    await left.settings.update((s) => {
      s.laneSettings.command = { command: 'echo y > y.txt' };
    });
    await left.tasks.add({ title: 'y' });
    await left.runQueue();
    const run = (await left.state()).runs[0]!;
    assert.ok(run.integration);
    assert.equal(existsSync(run.worktree), true);
    await left.close();
    const project = await openProject(repo.dir, 'echo y > y.txt');
    await project.runQueue();
    assert.equal(existsSync(run.worktree), false);
    assert.deepEqual(await gitWorktrees(repo), []);
    assert.ok((await repo.git('branch', '--list', run.branch)).trim(), 'its branch stays');
  });

  it('keepIntegratedWorktrees keeps them (the old behaviour), and --clean still removes them', async () => {
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    const project = await Project.open(repo.dir, { registry, hookCommand: null, keepIntegratedWorktrees: true });
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"' };
    });
    await project.tasks.addMany([{ title: 'a' }, { title: 'b' }]);
    await project.runQueue({ concurrency: 2 });
    assert.equal((await worktreeFolders(repo.dir)).length, 2);
    const listed = await runCli(['status'], { cwd: repo.dir });
    assert.match(listed.out, /worktrees: 2 \(/);
    const clean = await runCli(['worktrees', '--clean'], { cwd: repo.dir });
    assert.equal(clean.code, 0, clean.err);
    assert.equal((clean.out.match(/^removed /gm) ?? []).length, 2);
    assert.deepEqual(await gitWorktrees(repo), []);
  });
});

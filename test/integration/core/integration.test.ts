import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { createCommandLane } from '../../../plugins/command';
import { repoGit } from '../../helpers/repoGit';
import { makeTempRepo } from '../../helpers/tempRepo';

// A fake token in a format the secret rules know, assembled at run time so this file holds none.
const GITHUB_TOKEN = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');

async function openProject(dir: string, command: string) {
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  const project = await Project.open(dir, { registry });
  await project.settings.update((s) => {
    s.laneSettings.command = { command };
    s.retryBackoff.initialMs = 0;
  });
  return project;
}

describe('integration into the target branch', function () {
  this.timeout(60_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('a merge conflict sends the task back to start again from the target head, naming the file', async () => {
    const project = await openProject(repo.dir, 'echo "$SWITCHYARD_TASK_TITLE" > src/a.txt');
    await project.settings.update((s) => {
      s.wip.INTEGRATING = 1;
    });
    await project.tasks.addMany([{ title: 'first' }, { title: 'second' }]);
    await project.runQueue({ concurrency: 2 });
    const state = await project.state();
    assert.deepEqual(
      state.tasks.map((t) => t.state),
      ['DONE', 'DONE'],
      JSON.stringify(state.runs.map((r) => r.failureReason)),
    );
    const conflicted = state.runs.find((r) => r.failureCode === 'merge-conflict')!;
    assert.match(
      conflicted.failureReason!,
      /merging switchyard\/t\d\/1 into switchyard\/integration conflicts in src\/a\.txt/,
    );
    const retry = state.runs.find((r) => r.parentRunId === conflicted.id)!;
    assert.match(retry.feedback!, /conflicted in: src\/a\.txt/);
    const winner = state.tasks.find((t) => t.id !== conflicted.taskId)!;
    assert.equal(
      retry.baseCommit,
      winner.integration!.commit,
      "the new attempt starts from the target head that has the other task's work",
    );
    assert.equal(
      (await repo.git('show', 'switchyard/integration:src/a.txt')).trim(),
      state.tasks.find((t) => t.id === conflicted.taskId)!.spec.title,
    );
  });

  it('refuses a target branch that is checked out, with a clear reason, and merges nothing', async () => {
    const project = await openProject(repo.dir, 'echo x > x.txt');
    await project.settings.update((s) => {
      s.integration.targetBranch = 'main';
    });
    await project.tasks.add({ title: 'x' });
    await project.runQueue();
    const [task] = (await project.state()).tasks;
    assert.equal(task!.state, 'FAILED');
    assert.match(
      task!.failureReason!,
      /^the target branch main is checked out in .*; Switchyard never moves a checked-out branch/,
    );
    assert.equal(await repo.git('status', '--porcelain'), '');
    assert.equal((await repo.git('log', '--oneline', 'main')).trim().split('\n').length, 1);
  });

  it('the guards block a change: conflict markers get a fix attempt, a secret fails the task without a retry', async () => {
    const markers = ['<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> branch'].join('\\n');
    const project = await openProject(
      repo.dir,
      `if [ "$SWITCHYARD_TASK_TITLE" = secret ]; then echo 'token = "${GITHUB_TOKEN}"' > cfg.txt; elif [ -n "$SWITCHYARD_FEEDBACK" ]; then echo clean > m.txt; else printf '${markers}\\n' > m.txt; fi`,
    );
    await project.tasks.addMany([{ title: 'markers' }, { title: 'secret' }]);
    await project.runQueue();
    const state = await project.state();
    const [markersTask, secretTask] = state.tasks;
    assert.equal(markersTask!.state, 'DONE');
    const blocked = state.runs.find((r) => r.taskId === markersTask!.id && r.failureCode === 'guard-blocked')!;
    assert.match(blocked.failureReason!, /blocked by guards: conflict-markers: m\.txt:1/);
    assert.equal(secretTask!.state, 'FAILED');
    assert.equal(state.runs.filter((r) => r.taskId === secretTask!.id).length, 1, 'a policy violation is not retried');
    assert.match(secretTask!.failureReason!, /blocked by guards: secret-scan: cfg\.txt:1/);
    assert.equal(secretTask!.failureReason!.includes(GITHUB_TOKEN), false, 'the secret is not repeated');
    await assert.rejects(repo.git('show', 'switchyard/integration:cfg.txt'));
  });

  it("push mode pushes the target branch and the run's own branch to the remote after merging", async () => {
    const remote = await mkdtemp(join(tmpdir(), 'switchyard-remote-'));
    try {
      await repoGit(remote)('init', '-q', '--bare');
      await repo.git('remote', 'add', 'origin', remote);
      const project = await openProject(repo.dir, 'echo pushed > p.txt');
      await project.settings.update((s) => {
        s.integration.mode = 'push';
      });
      await project.tasks.add({ title: 'p' });
      await project.runQueue();
      const [run] = (await project.state()).runs;
      assert.equal(run!.integration?.pushed, true, run!.integration?.pushError);
      assert.equal((await repoGit(remote)('show', 'switchyard/integration:p.txt')).trim(), 'pushed');
      assert.equal((await repoGit(remote)('rev-parse', run!.branch)).trim(), run!.headCommit);
    } finally {
      await rm(remote, { recursive: true, force: true });
    }
  });
});

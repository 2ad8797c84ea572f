import assert from 'node:assert/strict';
import { appendFile, lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandLane } from '../../../plugins/command';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { PORT_BASE, PORT_BLOCK_SIZE } from '../../../src/core/lanes/portBlock';
import { Project } from '../../../src/core/project/project';
import type { ProjectSettings } from '../../../src/core/store/projectState';
import { formatStatus } from '../../../src/cli/format';
import { makeNodeProject } from '../../helpers/nodeProject';
import { runCli } from '../../helpers/runCli';

type NodeProject = Awaited<ReturnType<typeof makeNodeProject>>;

/** The project opened with the command lane (`agent` as its command), one attempt per task unless told. */
async function open(repo: NodeProject, agent: string, change: (s: ProjectSettings) => void, attempts = 1) {
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  // Integrated runs' worktrees are kept, so the tests can look at what setup left in them. The repository is the
  // user's own, trusted: its committed worktree.link (reads outside the worktree) applies.
  const project = await Project.open(repo.dir, {
    registry,
    keepIntegratedWorktrees: true,
    trusted: true,
  });
  await project.settings.update((s) => {
    s.laneSettings.command = { command: agent };
    s.retryCaps.command = attempts;
    s.retryBackoff = { initialMs: 0, coefficient: 2, maxMs: 0 };
    change(s);
  });
  return project;
}

describe('worktree setup (a real Node project, npm, the command lane)', function () {
  this.timeout(180_000);
  let repo: NodeProject;
  let scratch: string;
  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'switchyard-setup-'));
  });
  afterEach(async () => {
    await repo?.cleanup();
    await rm(scratch, { recursive: true, force: true });
  });

  it('without setup `npm test` fails, and the reason names the missing node_modules and the settings', async () => {
    repo = await makeNodeProject();
    const project = await open(repo, 'echo work > work.txt', () => undefined, 2);
    await project.tasks.addMany([{ title: 'a', acceptance: 'npm test' }]);
    await project.runQueue();
    const state = await project.state();
    const task = state.tasks[0]!;
    assert.equal(task.state, 'FAILED');
    const run = state.runs.at(-1)!;
    assert.equal(run.failureCode, 'verify-failed');
    assert.match(run.failureReason!, /worktree lacks ignored files the main checkout has \(node_modules\)/);
    assert.match(run.failureReason!, /`worktree\.setup`/);
    assert.match(run.failureReason!, /`worktree\.link`/);
    assert.match(task.failureReason!, /node_modules/);
    assert.match(run.feedback ?? state.runs[0]!.failureReason!, /node_modules/);
  });

  it('worktree.setup `npm ci --offline` makes the task DONE; later worktrees with the same lockfile get the setup cache (one install for three parallel runs), and a changed lockfile installs again', async () => {
    repo = await makeNodeProject();
    const counter = join(scratch, 'installs');
    const project = await open(repo, 'sleep 0.5; echo "$SWITCHYARD_TASK_TITLE" > work-$SWITCHYARD_RUN_ID.txt', (s) => {
      s.worktree.setup = [`echo install >> "${counter}"`, 'npm ci --offline --no-audit --no-fund'];
    });
    await project.tasks.addMany([
      { title: 'a', acceptance: 'npm test' },
      { title: 'b', acceptance: 'npm test' },
      { title: 'c', acceptance: 'npm test' },
    ]);
    await project.runQueue({ concurrency: 3 });
    let state = await project.state();
    assert.deepEqual(
      state.tasks.map((t) => t.state),
      ['DONE', 'DONE', 'DONE'],
      JSON.stringify(state.runs.map((r) => r.failureReason)),
    );
    assert.equal((await readFile(counter, 'utf8')).trim().split('\n').length, 1, 'setup ran once');
    const caches = state.runs.map((r) => r.setup?.cache).sort();
    assert.deepEqual(caches, ['hit', 'hit', 'stored']);
    for (const run of state.runs) assert.ok(run.setup!.durationMs >= 0);
    // `switchyard status` shows each run's setup time and whether the cache served it.
    assert.match(formatStatus(state), /setup [\d.]+ (ms|s) \(cache hit\)/);
    assert.match(formatStatus(state), /setup [\d.]+ (ms|s) \(cache stored\)/);
    // The restored node_modules is a real folder of the worktree, and it is not part of the run's change.
    const hit = state.runs.find((r) => r.setup?.cache === 'hit')!;
    assert.ok((await lstat(join(hit.worktree, 'node_modules', 'dep', 'index.js'))).isFile());
    const tree = await repo.git('ls-tree', '-r', '--name-only', hit.branch);
    assert.doesNotMatch(tree, /node_modules/);
    const log = (await project.runs.log(state.runs[0]!.id)).map((l) => JSON.stringify(l)).join('\n');
    assert.match(log, /worktree setup/);

    // A new lockfile (another version of the project's dependencies): a cache miss, setup runs again.
    const lock = JSON.parse(await readFile(join(repo.dir, 'package-lock.json'), 'utf8'));
    lock.packages[''].version = '1.0.1';
    lock.version = '1.0.1';
    const pkg = JSON.parse(await readFile(join(repo.dir, 'package.json'), 'utf8'));
    pkg.version = '1.0.1';
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(repo.dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
    await writeFile(join(repo.dir, 'package.json'), JSON.stringify(pkg, null, 2));
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'bump');
    await project.tasks.addMany([{ title: 'd', acceptance: 'npm test' }]);
    await project.runQueue();
    state = await project.state();
    assert.equal(state.tasks[3]!.state, 'DONE', state.runs.at(-1)!.failureReason);
    assert.equal(state.runs.at(-1)!.setup!.cache, 'stored');
    assert.equal((await readFile(counter, 'utf8')).trim().split('\n').length, 2, 'setup ran again');
  });

  it('worktree.link ["node_modules"] makes the task DONE; the symlink is not committed on the run branch', async () => {
    repo = await makeNodeProject();
    const project = await open(repo, 'echo work > work.txt', (s) => {
      s.worktree.link = ['node_modules'];
    });
    await project.tasks.addMany([{ title: 'a', acceptance: 'npm test' }]);
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    const run = state.runs[0]!;
    assert.ok((await lstat(join(run.worktree, 'node_modules'))).isSymbolicLink());
    const tree = await repo.git('ls-tree', '-r', '--name-only', run.branch);
    assert.match(tree, /work\.txt/);
    assert.doesNotMatch(tree, /node_modules/);
  });

  it('set through `switchyard config set`: worktree.link (committed) and worktree.setup (--local) each make it DONE', async () => {
    repo = await makeNodeProject();
    const linked = await runCli(['config', 'set', 'worktree.link', '["node_modules"]', '--repo', repo.dir]);
    assert.equal(linked.code, 0, linked.err);
    const project = await open(repo, 'echo work > work.txt', () => undefined);
    await project.tasks.addMany([{ title: 'linked', acceptance: 'npm test' }]);
    await project.runQueue();
    let state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);

    assert.equal((await runCli(['config', 'unset', 'worktree.link', '--repo', repo.dir])).code, 0);
    const setup = ['config', 'set', 'worktree.setup', '["npm ci --offline --no-audit --no-fund"]', '--local'];
    const local = await runCli([...setup, '--repo', repo.dir]);
    assert.equal(local.code, 0, local.err);
    const explained = await runCli(['config', 'get', 'worktree', '--explain', '--repo', repo.dir]);
    assert.match(explained.out, /worktree\.setup.*local/);
    await project.tasks.addMany([{ title: 'set up', acceptance: 'npm test' }]);
    await project.runQueue();
    state = await project.state();
    assert.equal(state.tasks[1]!.state, 'DONE', state.tasks[1]!.failureReason);
    assert.ok(!(await lstat(join(state.runs[1]!.worktree, 'node_modules'))).isSymbolicLink(), 'installed, not linked');
  });

  it('worktree.copy [".env"] makes a test that reads it pass; without it the reason names .env', async () => {
    repo = await makeNodeProject({ env: true });
    const project = await open(repo, 'echo work > work.txt', (s) => {
      s.worktree.link = ['node_modules'];
    });
    await project.tasks.addMany([{ title: 'without', acceptance: 'npm test' }]);
    await project.runQueue();
    let state = await project.state();
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.match(state.runs[0]!.failureReason!, /GREETING|\.env/);
    assert.match(state.runs[0]!.failureReason!, /lacks ignored files the main checkout has \(\.env\)/);
    assert.match(state.runs[0]!.failureReason!, /`worktree\.copy`/);

    await project.settings.update((s) => {
      s.worktree.copy = ['.env'];
    });
    await project.tasks.addMany([{ title: 'with', acceptance: 'npm test' }]);
    await project.runQueue();
    state = await project.state();
    assert.equal(state.tasks[1]!.state, 'DONE', state.tasks[1]!.failureReason);
    assert.equal(await readFile(join(state.runs[1]!.worktree, '.env'), 'utf8'), 'GREETING=hello\n');
  });

  it('a failing setup command is a permanent workspace-setup-failed naming the command and its output', async () => {
    repo = await makeNodeProject();
    const project = await open(
      repo,
      'echo work > work.txt',
      (s) => {
        s.worktree.setup = ['echo "cannot reach the registry" >&2; exit 3'];
      },
      3,
    );
    await project.tasks.addMany([{ title: 'a', acceptance: 'npm test' }]);
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.equal(state.runs.length, 1, 'not retried with the same input');
    const run = state.runs[0]!;
    assert.equal(run.failureCode, 'workspace-setup-failed');
    assert.match(run.failureReason!, /`echo "cannot reach the registry" >&2; exit 3` exited with code 3/);
    assert.match(run.failureReason!, /exited with code 3: cannot reach the registry/);
    assert.match(run.failureReason!, /worktree\.setup/);
    assert.ok(run.setup, 'the setup time is on the run');
    const setupLines = (await project.runs.log(run.id)).filter((l) => l.type === 'setup');
    assert.match(JSON.stringify(setupLines), /cannot reach the registry/);
  });

  it("a git-ignored lockfile: plain `npm ci` fails with npm's cause; worktree.copy it and `npm ci` works", async () => {
    repo = await makeNodeProject();
    await appendFile(join(repo.dir, '.gitignore'), 'package-lock.json\n');
    await repo.git('rm', '--cached', '--quiet', 'package-lock.json');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'the lockfile is not committed');
    const setup = ['npm ci --no-audit --no-fund'];
    const without = await open(repo, 'echo work > work.txt', (s) => {
      s.worktree.setup = setup;
    });
    await without.tasks.addMany([{ title: 'a', acceptance: 'npm test' }]);
    await without.runQueue();
    const failed = (await without.state()).runs[0]!;
    assert.equal(failed.failureCode, 'workspace-setup-failed');
    // npm's cause leads, not the end of its usage text.
    assert.match(failed.failureReason!, /`npm ci --no-audit --no-fund` exited with code 1: npm error code EUSAGE \| /);
    assert.match(
      failed.failureReason!,
      /npm error The `npm ci` command can only install with an existing package-lock/,
    );
    await without.close();

    const withCopy = await open(repo, 'echo work > work.txt', (s) => {
      s.worktree.setup = setup;
      s.worktree.copy = ['package-lock.json'];
    });
    await withCopy.tasks.addMany([{ title: 'b', acceptance: 'npm test' }]);
    await withCopy.runQueue();
    const state = await withCopy.state();
    assert.equal(state.tasks.find((t) => t.spec.title === 'b')?.state, 'DONE', state.runs.at(-1)?.failureReason);
    await withCopy.close();
  });

  it('a worktree.copy file the main checkout lacks is workspace-setup-failed, naming the setting', async () => {
    repo = await makeNodeProject();
    const project = await open(
      repo,
      'echo work > work.txt',
      (s) => {
        s.worktree.copy = ['.env.local'];
      },
      3,
    );
    await project.tasks.addMany([{ title: 'a' }]);
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.runs.length, 1);
    assert.equal(state.runs[0]!.failureCode, 'workspace-setup-failed');
    assert.match(
      state.runs[0]!.failureReason!,
      /worktree\.copy names "\.env\.local", which does not exist in the main/,
    );
  });

  it('a setup command over worktree.setupTimeoutSeconds is stopped and named', async () => {
    repo = await makeNodeProject();
    const project = await open(repo, 'echo work > work.txt', (s) => {
      s.worktree.setup = ['sleep 60'];
      s.worktree.setupTimeoutSeconds = 1;
    });
    await project.tasks.addMany([{ title: 'a' }]);
    const started = Date.now();
    await project.runQueue();
    assert.ok(Date.now() - started < 30_000);
    const run = (await project.state()).runs[0]!;
    assert.equal(run.failureCode, 'workspace-setup-failed');
    assert.match(run.failureReason!, /`sleep 60` timed out \(worktree\.setupTimeoutSeconds is 1\)/);
  });

  it('parallel runs get distinct SWITCHYARD_PORT blocks and SWITCHYARD_RUN_ID, in setup and in the lane', async () => {
    repo = await makeNodeProject();
    const project = await open(
      repo,
      'sleep 1; echo "$SWITCHYARD_RUN_ID $SWITCHYARD_PORT $SWITCHYARD_PORT_COUNT" > lane.txt',
      (s) => {
        s.worktree.setup = ['echo "$SWITCHYARD_RUN_ID $SWITCHYARD_PORT" > setup.txt'];
        s.integration.enabled = false;
      },
    );
    await project.tasks.addMany([{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    await project.runQueue({ concurrency: 3 });
    const state = await project.state();
    const ports = new Set<string>();
    for (const run of state.runs) {
      assert.equal(run.state, 'SUCCEEDED', run.failureReason);
      const [id, port, count] = (await repo.git('show', `${run.branch}:lane.txt`)).trim().split(' ');
      assert.equal(id, run.id);
      assert.equal(count, String(PORT_BLOCK_SIZE));
      assert.equal(Number(port), PORT_BASE + PORT_BLOCK_SIZE * run.portSlot!);
      assert.equal((await repo.git('show', `${run.branch}:setup.txt`)).trim(), `${run.id} ${port}`);
      ports.add(port!);
    }
    assert.equal(ports.size, 3, 'three runs at once, three port blocks');
  });
});

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cloneRepo, repoGit } from '../../helpers/repoGit';
import { runCli } from '../../helpers/runCli';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

describe('the committed project config in a fresh clone', function () {
  this.timeout(240_000);
  let origin: Awaited<ReturnType<typeof makeTempRepo>>;
  let home: Awaited<ReturnType<typeof makeTempDir>>;
  let env: NodeJS.ProcessEnv;
  let clone: string;
  const cli = (dir: string, ...args: string[]) => runCli([...args, '--repo', dir], { env });

  beforeEach(async () => {
    origin = await makeTempRepo();
    home = await makeTempDir();
    env = { ...process.env, XDG_CONFIG_HOME: home.dir, SWITCHYARD_BACKEND: 'files' };
    clone = join(home.dir, 'clone');
  });
  afterEach(async () => {
    await origin.cleanup();
    await home.cleanup();
  });

  /** Commits what `.switchyard/` does not ignore (the config alone), then clones the repository. */
  async function commitAndClone(): Promise<void> {
    const untracked = await origin.git('ls-files', '--others', '--exclude-standard');
    assert.equal(untracked, '.switchyard/config.json\n', 'the rest of .switchyard/ is ignored');
    await origin.git('add', '.switchyard');
    await origin.git('commit', '-m', 'team config');
    await cloneRepo(origin.dir, clone);
  }

  it('a committed integration branch and WIP limit apply to the clone, explained as committed', async () => {
    assert.equal((await cli(origin.dir, 'config', 'set', 'integration.targetBranch', 'team/int')).code, 0);
    assert.equal((await cli(origin.dir, 'config', 'set', 'wip.RUNNING', '1')).code, 0);
    await commitAndClone();
    const explained = await cli(clone, 'config', 'get', '--explain');
    assert.match(explained.out, /^integration\.targetBranch = "team\/int" {2}\(committed/m);
    assert.match(explained.out, /^wip\.RUNNING = 1 {2}\(committed/m);
    assert.match(explained.out, /^wip\.VERIFYING = 2 {2}\(default\)$/m);
    const lanes = await cli(clone, 'lanes', 'set', 'command', 'command=echo "$SWITCHYARD_TASK_ID" > done.txt');
    assert.equal(lanes.code, 0, lanes.err);
    assert.equal((await cli(clone, 'task', 'add', '--title', 'one')).code, 0);
    const run = await cli(clone, 'run');
    assert.equal(run.code, 0, run.out + run.err);
    const merged = await repoGit(clone)('show', 'team/int:done.txt');
    assert.equal(merged.trim(), 't1');
    const status = await cli(clone, 'status', '--json');
    assert.equal(JSON.parse(status.out).settings.wip.RUNNING, 1);
  });

  it('a committed lane command does not run until the workspace is trusted', async () => {
    const marker = join(home.dir, 'ran.txt');
    const command = `echo done > out.txt && echo ran >> '${marker}'`;
    const set = await cli(origin.dir, 'config', 'set', 'laneSettings.command.command', command);
    assert.equal(set.code, 0, set.err);
    // Said by the command that stored it, not one command later.
    assert.match(
      set.err,
      /warning: ignored in .*config\.json until this workspace is trusted: laneSettings\.command\.command \(would run/,
    );
    await commitAndClone();
    assert.equal((await cli(clone, 'task', 'add', '--title', 'one')).code, 0);
    const untrusted = await cli(clone, 'run');
    assert.equal(untrusted.code, 1, untrusted.out + untrusted.err);
    assert.match(
      untrusted.err,
      /ignored in .*config\.json until this workspace is trusted: laneSettings\.command\.command \(would run a command\)\. Trust it with `switchyard trust`/,
    );
    assert.equal(existsSync(marker), false);
    const explained = await cli(clone, 'config', 'get', 'laneSettings', '--explain');
    assert.match(explained.out, /^laneSettings\.command\.command = .*\(ignored: committed .*executes/m);
    assert.equal((await runCli(['trust', '--repo', clone], { env })).code, 0);
    assert.equal((await cli(clone, 'retry', 't1')).code, 0);
    const trusted = await cli(clone, 'run');
    assert.equal(trusted.code, 0, trusted.out + trusted.err);
    assert.doesNotMatch(trusted.err, /ignored in/);
    assert.equal(existsSync(marker), true);
    const after = await cli(clone, 'config', 'get', 'laneSettings.command.command', '--explain');
    assert.match(after.out, /\(committed/);
  });
});

describe('the committed verify timeout', function () {
  this.timeout(120_000);
  it('bounds the acceptance command of a run', async () => {
    const repo = await makeTempRepo();
    const home = await makeTempDir();
    const env = { ...process.env, XDG_CONFIG_HOME: home.dir, SWITCHYARD_BACKEND: 'files' };
    const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir], { env });
    try {
      assert.equal((await cli('config', 'set', 'verifyTimeoutSeconds', '1')).code, 0);
      assert.equal((await cli('lanes', 'set', 'command', 'command=echo x > x.txt')).code, 0);
      const add = await cli('task', 'add', '--title', 'slow check', '--accept', 'sleep 30', '--json');
      assert.equal(add.code, 0, add.err);
      const started = Date.now();
      const run = await cli('run');
      assert.equal(run.code, 1, run.out + run.err);
      assert.ok(Date.now() - started < 25_000, `took ${Date.now() - started} ms: the 30 s command was not cut`);
      const status = JSON.parse((await cli('status', '--json')).out);
      assert.equal(status.tasks[0].state, 'FAILED');
      assert.match(JSON.stringify(status.tasks[0]), /time/i);
    } finally {
      await repo.cleanup();
      await home.cleanup();
    }
  });
});

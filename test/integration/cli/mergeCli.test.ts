import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('switchyard merge and checkout', function () {
  this.timeout(90_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir]);
  const git = async (...args: string[]) => (await repo.git(...args)).trim();

  beforeEach(async () => {
    repo = await makeTempRepo();
    await cli('lanes', 'set', 'command', 'command=echo "$SWITCHYARD_TASK_ID" > "$SWITCHYARD_TASK_ID.txt"');
    const file = join(repo.dir, '..', `${repo.dir.split('/').pop()}-tasks.json`);
    // b starts from switchyard/integration, which holds a's work: the way a retry after a conflict starts too.
    await writeFile(
      file,
      JSON.stringify({
        tasks: [
          { title: 'a', key: 'a' },
          { title: 'b', key: 'b', dependsOn: ['a'] },
        ],
      }),
    );
    assert.equal((await cli('task', 'add', '--from', file)).code, 0);
    const run = await cli('run');
    assert.equal(run.code, 0, run.out + run.err);
  });
  afterEach(() => repo.cleanup());

  it("takes exactly the task's change as one commit, records it, and status shows it", async () => {
    const before = await git('rev-parse', 'HEAD');
    const merged = await cli('merge', 't2');
    assert.equal(merged.code, 0, merged.err);
    assert.match(merged.out, /^merged t2 into main as one commit [0-9a-f]{12}$/);
    assert.equal(await git('rev-list', '--count', `${before}..HEAD`), '1', 'one commit');
    assert.equal(await git('diff', '--name-only', before, 'HEAD'), 't2.txt', "not a's unreviewed work");
    assert.equal(await git('log', '-1', '--format=%B'), 'b\n\nSwitchyard task t2, run t2.1');
    const status = await cli('status');
    assert.match(status.out, /^t2\s+DONE, merged\s/m);
    assert.match(status.out, /^ {2}merged into main as [0-9a-f]{12} \(t2\.1, /m);
    assert.match(status.out, /^t1\s+DONE\s/m, 'a is not merged');
    const again = await cli('merge', 't2');
    assert.equal(again.out, 'main already has the change of t2; nothing to merge');
    assert.equal(await git('rev-list', '--count', `${before}..HEAD`), '1');
  });

  it('refuses on uncommitted changes and on a detached HEAD; a conflict changes nothing', async () => {
    await writeFile(join(repo.dir, 'README.md'), 'unsaved\n');
    const dirty = await cli('merge', 't1');
    assert.equal(dirty.code, 1);
    assert.match(dirty.err, /cannot merge t1 \(switchyard\/t1\/1\) into main: uncommitted changes in README\.md/);
    const checkoutDirty = await cli('checkout', 't1');
    assert.match(checkoutDirty.err, /cannot check out switchyard\/t1\/1: uncommitted changes in README\.md/);
    await repo.git('checkout', '--', 'README.md');

    await writeFile(join(repo.dir, 't1.txt'), 'mine\n');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'my own t1.txt');
    const mine = await git('rev-parse', 'HEAD');
    const conflict = await cli('merge', 't1');
    assert.equal(conflict.code, 1);
    assert.match(conflict.err, /t1 \(switchyard\/t1\/1\) conflicts with main in t1\.txt: the merge was aborted and/);
    assert.equal(await git('rev-parse', 'HEAD'), mine);
    assert.equal(await git('status', '--porcelain'), '');
    assert.equal(await readFile(join(repo.dir, 't1.txt'), 'utf8'), 'mine\n');

    await repo.git('checkout', '--detach', 'HEAD');
    const detached = await cli('merge', 't2');
    assert.match(detached.err, /HEAD is detached in .*: check out a branch to merge t2/);
  });

  it("checks out a task's branch", async () => {
    const out = await cli('checkout', 't2');
    assert.equal(out.code, 0, out.err);
    assert.equal(out.out, 'checked out switchyard/t2/1');
    assert.equal(await git('branch', '--show-current'), 'switchyard/t2/1');
  });
});

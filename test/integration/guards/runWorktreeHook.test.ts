import assert from 'node:assert/strict';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installRunWorktreeHook } from '../../../src/core/guards/installPrePushHook';
import { makePushSetup, run, type PushSetup } from './gitFixture';
import { testCliCommand } from './testCli';

const L = '<'.repeat(7);

/**
 * The run worktree's hook, installed without git processes (the repository's facts asked once): what git then does
 * in those worktrees is what `guard install` in a worktree gives.
 */
describe('installRunWorktreeHook (run worktrees)', function () {
  this.timeout(60_000);
  let s: PushSetup;
  let hookCommand: string;

  before(async () => {
    hookCommand = await testCliCommand();
  });
  beforeEach(async () => {
    s = await makePushSetup();
  });
  afterEach(async () => s.cleanup());

  const hooksOf = async (dir: string): Promise<string> =>
    (await run('git', ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], dir)).stdout.trim();

  it("gives each worktree its own guard, forwards the user's hooks, leaves the repository's alone", async () => {
    const userHook = join(s.clone, '.git', 'hooks', 'post-commit');
    await writeFile(userHook, `#!/bin/sh\necho ran >> '${join(s.root, 'post-commit-ran')}'\n`);
    await chmod(userHook, 0o755);
    const trees = [join(s.root, 'wt1'), join(s.root, 'wt2')];
    for (const [i, wt] of trees.entries()) {
      await s.git('worktree', 'add', '-q', '-b', `switchyard/t${i + 1}/1`, wt);
      const installed = await installRunWorktreeHook(wt, hookCommand);
      assert.equal(installed.scope, 'worktree');
      assert.equal(await hooksOf(wt), installed.hooksDir, 'git uses the worktree its own hooks folder');
      assert.match(installed.hooksDir, new RegExp(`\\.git/worktrees/wt${i + 1}/switchyard-hooks$`));
    }
    assert.equal(await hooksOf(s.clone), join(s.clone, '.git', 'hooks'), "the repository's hooks stay");
    await stat(join(s.clone, '.git', 'hooks', 'pre-push')).then(
      () => assert.fail('no hook was added to the repository'),
      () => undefined,
    );

    for (const [i, wt] of trees.entries()) {
      await writeFile(join(wt, `x${i}.txt`), `${L} HEAD\n`);
      await run('git', ['add', '-A'], wt);
      assert.equal((await run('git', ['commit', '-q', '-m', 'x'], wt)).code, 0);
      const pushed = await run('git', ['push', 'origin', `switchyard/t${i + 1}/1`], wt);
      assert.notEqual(pushed.code, 0, `the push from worktree ${i + 1} is refused`);
      assert.match(pushed.stderr, new RegExp(`x${i}\\.txt:1: conflict marker`));
    }
    assert.equal((await readFile(join(s.root, 'post-commit-ran'), 'utf8')).trim().split('\n').length, 2);
  });

  it('takes the general path for a worktree that has its own config already', async () => {
    const wt = join(s.root, 'wt');
    await s.git('worktree', 'add', '-q', '-b', 'switchyard/t1/1', wt);
    await s.git('config', 'extensions.worktreeConfig', 'true');
    await run('git', ['config', '--worktree', 'user.name', 'Kept'], wt);
    const installed = await installRunWorktreeHook(wt, hookCommand);
    assert.equal(await hooksOf(wt), installed.hooksDir);
    assert.equal((await run('git', ['config', '--worktree', 'user.name'], wt)).stdout.trim(), 'Kept');
  });
});

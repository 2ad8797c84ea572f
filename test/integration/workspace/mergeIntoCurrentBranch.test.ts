import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSwitchyardError } from '../../../src/core/errors';
import { changedFiles, fileAtCommit } from '../../../src/core/git/changedFiles';
import { workingTreeChanges } from '../../../src/core/git/workingTreeChanges';
import {
  checkOutBranch,
  mergeIntoCurrentBranch,
  type TaskChange,
} from '../../../src/core/workspace/mergeIntoCurrentBranch';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('taking a run branch into the checked-out branch (real git)', function () {
  this.timeout(30_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let base: string;
  let head: string;

  beforeEach(async function () {
    repo = await makeTempRepo({ 'README.md': '# test\n', 'src/a.txt': 'alpha\n', 'src/gone.txt': 'bye\n' });
    base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', '-b', 'switchyard/t1/1');
    await writeFile(join(repo.dir, 'src/a.txt'), 'alpha\nfrom the lane\n');
    await writeFile(join(repo.dir, 'src/new.txt'), 'new\n');
    await repo.git('rm', 'src/gone.txt');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'the lane');
    head = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', 'main');
  });
  afterEach(() => repo.cleanup());

  it('lists the changed files and reads either side', async function () {
    assert.deepEqual(await changedFiles(repo.dir, base, head), [
      { path: 'src/a.txt', status: 'modified' },
      { path: 'src/gone.txt', status: 'deleted' },
      { path: 'src/new.txt', status: 'added' },
    ]);
    assert.equal(await fileAtCommit(repo.dir, base, 'src/a.txt'), 'alpha\n');
    assert.equal(await fileAtCommit(repo.dir, head, 'src/a.txt'), 'alpha\nfrom the lane\n');
    assert.equal(await fileAtCommit(repo.dir, head, 'src/gone.txt'), undefined);
    assert.deepEqual(await changedFiles(repo.dir, base, base), []);
  });

  const change = (over: Partial<TaskChange> = {}): TaskChange => ({
    base,
    head,
    message: 'The lane\n\nSwitchyard task t1, run t1.1',
    label: 't1 (switchyard/t1/1)',
    ...over,
  });

  it("takes the run's change as one commit on the current branch, with the task's message", async function () {
    // The branch's history has two attempts: the second fixes the first.
    await repo.git('checkout', 'switchyard/t1/1');
    await writeFile(join(repo.dir, 'src/fix.txt'), 'fixed\n');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'attempt 2');
    head = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', 'main');
    const outcome = await mergeIntoCurrentBranch(repo.dir, change({ head }));
    assert.equal(outcome.into, 'main');
    assert.equal(outcome.upToDate, false);
    assert.equal((await repo.git('rev-parse', 'HEAD')).trim(), outcome.commit);
    assert.equal(await readFile(join(repo.dir, 'src/a.txt'), 'utf8'), 'alpha\nfrom the lane\n');
    assert.equal(await readFile(join(repo.dir, 'src/fix.txt'), 'utf8'), 'fixed\n');
    const parents = (await repo.git('rev-list', '--parents', '-n', '1', 'HEAD')).trim().split(' ');
    assert.deepEqual(parents.slice(1), [base], 'one commit, on top of the branch');
    assert.equal((await repo.git('log', '-1', '--format=%B')).trim(), 'The lane\n\nSwitchyard task t1, run t1.1');
    assert.deepEqual(await workingTreeChanges(repo.dir), []);
    const again = await mergeIntoCurrentBranch(repo.dir, change({ head }));
    assert.deepEqual(again, { into: 'main', commit: outcome.commit, upToDate: true });
  });

  it("takes only the task's own change, not the other tasks' work its run started from", async function () {
    // switchyard/integration holds another task's work; this task's retry started there.
    await repo.git('checkout', '-b', 'switchyard/integration', base);
    await writeFile(join(repo.dir, 'other.txt'), "another task's unreviewed work\n");
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'other task');
    const integrationHead = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', '-b', 'switchyard/t2/2');
    await writeFile(join(repo.dir, 'mine.txt'), 'the reviewed change\n');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 't2 attempt 2');
    const t2 = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', 'main');
    const outcome = await mergeIntoCurrentBranch(
      repo.dir,
      change({ base: integrationHead, head: t2, message: 't2\n\nSwitchyard task t2, run t2.2', label: 't2' }),
    );
    assert.equal(outcome.upToDate, false);
    assert.deepEqual(await changedFiles(repo.dir, base, 'HEAD'), [{ path: 'mine.txt', status: 'added' }]);
  });

  it('refuses on uncommitted changes to tracked files and leaves them as they were', async function () {
    await writeFile(join(repo.dir, 'README.md'), '# my unsaved work\n');
    await assert.rejects(mergeIntoCurrentBranch(repo.dir, change()), (error: unknown) => {
      assert.ok(isSwitchyardError(error, 'working-tree-dirty'));
      assert.match(error.message, /uncommitted changes in README\.md\. Commit or stash them first/);
      return true;
    });
    await assert.rejects(checkOutBranch(repo.dir, 'switchyard/t1/1'), /cannot check out switchyard\/t1\/1/);
    assert.equal(await readFile(join(repo.dir, 'README.md'), 'utf8'), '# my unsaved work\n');
    assert.equal((await repo.git('rev-parse', 'HEAD')).trim(), base);
    assert.equal((await repo.git('rev-parse', '--abbrev-ref', 'HEAD')).trim(), 'main');
  });

  it('refuses on a detached HEAD', async function () {
    await repo.git('checkout', '--detach', 'HEAD');
    await assert.rejects(mergeIntoCurrentBranch(repo.dir, change()), /HEAD is detached .*: check out a branch/);
  });

  it('aborts a conflicting merge: HEAD, the files and the index are as before', async function () {
    await writeFile(join(repo.dir, 'src/a.txt'), 'alpha\nmine\n');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'mine');
    const mine = (await repo.git('rev-parse', 'HEAD')).trim();
    await assert.rejects(mergeIntoCurrentBranch(repo.dir, change()), (error: unknown) => {
      assert.ok(isSwitchyardError(error, 'merge-conflict'));
      assert.match(error.message, /t1 \(switchyard\/t1\/1\) conflicts with main in src\/a\.txt: the merge was aborted/);
      return true;
    });
    assert.equal((await repo.git('rev-parse', 'HEAD')).trim(), mine);
    assert.equal(await readFile(join(repo.dir, 'src/a.txt'), 'utf8'), 'alpha\nmine\n');
    assert.deepEqual(await workingTreeChanges(repo.dir), []);
    assert.equal(await repo.git('status', '--porcelain'), '', 'no staged or untracked leftovers');
  });

  it('checks out the branch on a clean tree', async function () {
    await checkOutBranch(repo.dir, 'switchyard/t1/1');
    assert.equal((await repo.git('rev-parse', '--abbrev-ref', 'HEAD')).trim(), 'switchyard/t1/1');
    assert.equal(await readFile(join(repo.dir, 'src/new.txt'), 'utf8'), 'new\n');
  });
});

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { checkedOutIn, mergeTrees, readBranchTip, treeOf } from '../../../src/core/engine/integration/targetBranch';
import { repoGit } from '../../helpers/repoGit';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('integration plumbing (targetBranch)', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('reads a branch tip and its tree in one call; a missing branch or a ref below it is not the branch', async () => {
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('branch', 'switchyard/integration');
    assert.deepEqual(await readBranchTip(repo.dir, 'switchyard/integration'), {
      commit: head,
      tree: await treeOf(repo.dir, head),
    });
    assert.equal(await readBranchTip(repo.dir, 'switchyard/none'), undefined);
    await repo.git('update-ref', 'refs/heads/only/below', head);
    assert.equal(await readBranchTip(repo.dir, 'only'), undefined, 'refs/heads/only/below is not refs/heads/only');
  });

  it("merging a run the target already has gives the target's own tree (so nothing is committed)", async () => {
    const run = (await repo.git('rev-parse', 'HEAD')).trim();
    await writeFile(join(repo.dir, 'later.txt'), 'later\n');
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'later work on the target');
    const target = (await repo.git('rev-parse', 'HEAD')).trim();
    const merged = await mergeTrees(repo.dir, target, run);
    assert.deepEqual(merged, { ok: true, tree: await treeOf(repo.dir, target) });
  });
});

describe('checkedOutIn', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('finds the branch checked out in the main worktree or a linked one, as git worktree list does', async () => {
    assert.equal(await checkedOutIn(repo.dir, 'main'), repo.dir);
    assert.equal(await checkedOutIn(repo.dir, 'switchyard/integration'), undefined);
    const linked = join(repo.dir, '..', `${basename(repo.dir)}-linked`);
    await repo.git('worktree', 'add', '-q', '-b', 'switchyard/integration', linked);
    try {
      assert.equal(await checkedOutIn(repo.dir, 'switchyard/integration'), linked);
      await repoGit(linked)('checkout', '-q', '--detach');
      assert.equal(await checkedOutIn(repo.dir, 'switchyard/integration'), undefined, 'a detached HEAD holds none');
    } finally {
      await rm(linked, { recursive: true, force: true });
    }
  });
});

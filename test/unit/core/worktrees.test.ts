import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { captureChange, createWorktree, listWorktrees, removeWorktree, worktreePath } from '../../../src/core/workspace/worktrees';
import { headCommit, resolveRepoRoot } from '../../../src/core/workspace/gitRepo';
import { isSwitchyardError } from '../../../src/core/errors';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

describe('worktrees', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => { repo = await makeTempRepo(); });
  afterEach(async () => repo.cleanup());

  it('creates a worktree on its own branch, captures the diff, and leaves the user tree alone', async () => {
    const base = await headCommit(repo.dir);
    const path = worktreePath(repo.dir, 't1.1');
    await createWorktree(repo.dir, path, 'switchyard/t1/1', base);
    await writeFile(join(path, 'src', 'a.txt'), 'alpha\nbeta\n');
    await writeFile(join(path, 'new.txt'), 'new\n');
    const change = await captureChange(path, base, 'switchyard: test');
    assert.deepEqual(change.stat, { files: 2, insertions: 2, deletions: 0 });
    assert.match(change.diff, /\+beta/);
    assert.match(change.diff, /new file mode/);
    assert.equal(await readFile(join(repo.dir, 'src', 'a.txt'), 'utf8'), 'alpha\n', 'user file untouched');
    const status = await repo.git.status();
    assert.deepEqual(status.files, [], 'user working tree clean');
    assert.equal((await repo.git.revparse(['switchyard/t1/1'])).trim(), change.headCommit);
    assert.deepEqual((await listWorktrees(repo.dir)).map((w) => w.branch), ['switchyard/t1/1']);
    await removeWorktree(repo.dir, path);
    assert.deepEqual(await listWorktrees(repo.dir), []);
    assert.equal((await repo.git.revparse(['switchyard/t1/1'])).trim(), change.headCommit, 'the branch survives cleaning');
  });

  it('an empty change gives an empty diff', async () => {
    const base = await headCommit(repo.dir);
    const path = worktreePath(repo.dir, 't2.1');
    await createWorktree(repo.dir, path, 'switchyard/t2/1', base);
    const change = await captureChange(path, base, 'nothing');
    assert.equal(change.diff, '');
    assert.equal(change.headCommit, base);
  });

  it('refuses to remove a folder that is not a Switchyard worktree', async () => {
    await assert.rejects(removeWorktree(repo.dir, repo.dir), /not a Switchyard worktree/);
  });

  it('names a folder that is not a git repository', async () => {
    const plain = await makeTempDir();
    try {
      await assert.rejects(resolveRepoRoot(plain.dir), (e: unknown) => isSwitchyardError(e, 'not-a-git-repo') && e.message.includes(plain.dir) && /git init/.test(e.message));
    } finally {
      await plain.cleanup();
    }
  });
});

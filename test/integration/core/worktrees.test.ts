import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { worktreePath } from '../../../src/core/store/runPaths';
import { captureChange, createWorktree, listWorktrees, removeWorktree } from '../../../src/core/workspace/worktrees';
import { headCommit, resolveRepoRoot } from '../../../src/core/workspace/gitRepo';
import { isSwitchyardError } from '../../../src/core/errors';
import { useGitRunner } from '../../../src/core/git/gitExec';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

describe('worktrees', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('creates a worktree on its own branch, captures the diff, and leaves the user tree alone', async () => {
    const base = await headCommit(repo.dir);
    const path = worktreePath(repo.dir, 't1.1');
    await createWorktree(repo.dir, path, 'switchyard/t1/1', base);
    await writeFile(join(path, 'src', 'a.txt'), 'alpha\nbeta\n');
    await writeFile(join(path, 'new.txt'), 'new\n');
    await writeFile(join(path, 'blob.bin'), Buffer.from([0, 1, 2, 255, 0, 10, 13]));
    const change = await captureChange(path, base, 'switchyard: test');
    // git counts a binary file without lines (`-  -` in --numstat).
    assert.deepEqual(change.stat, { files: 3, insertions: 2, deletions: 0 });
    assert.match(change.diff, /GIT binary patch/);
    assert.match(change.diff, /\+beta/);
    assert.match(change.diff, /new file mode/);
    assert.equal(
      change.diff,
      await repo.git('diff', '--binary', base, change.headCommit),
      "the run's diff is git's own, byte for byte",
    );
    assert.equal(await readFile(join(repo.dir, 'src', 'a.txt'), 'utf8'), 'alpha\n', 'user file untouched');
    assert.equal(await repo.git('status', '--porcelain'), '', 'user working tree clean');
    assert.equal((await repo.git('rev-parse', 'switchyard/t1/1')).trim(), change.headCommit);
    assert.deepEqual(
      (await listWorktrees(repo.dir)).map((w) => w.branch),
      ['switchyard/t1/1'],
    );
    await removeWorktree(repo.dir, path);
    assert.deepEqual(await listWorktrees(repo.dir), []);
    assert.equal(
      (await repo.git('rev-parse', 'switchyard/t1/1')).trim(),
      change.headCommit,
      'the branch survives cleaning',
    );
  });

  it('a branch lock held by another git process is waited out (git names the lock above several lines of hints)', async () => {
    const base = await headCommit(repo.dir);
    const path = worktreePath(repo.dir, 't3.1');
    const lock = join(repo.dir, '.git', 'refs', 'heads', 'switchyard', 't3', '1.lock');
    await mkdir(dirname(lock), { recursive: true });
    await writeFile(lock, '');
    // The other process lets go of the lock once the first try has met it: when the second try starts.
    let tries = 0;
    const previous = useGitRunner(({ args }) => {
      if (args.includes('worktree') && args.includes('add') && ++tries === 2) rmSync(lock);
      return undefined;
    });
    try {
      await createWorktree(repo.dir, path, 'switchyard/t3/1', base);
    } finally {
      useGitRunner(previous);
    }
    assert.equal(tries, 2, 'the first try met the lock, the second got through');
    assert.equal((await repo.git('rev-parse', 'switchyard/t3/1')).trim(), base);
    assert.deepEqual(
      (await listWorktrees(repo.dir)).map((w) => w.branch),
      ['switchyard/t3/1'],
    );
  });

  it('a lock that is never released fails with git-failed naming the worktree, after the retries', async () => {
    const base = await headCommit(repo.dir);
    const lock = join(repo.dir, '.git', 'refs', 'heads', 'switchyard', 't4', '1.lock');
    await mkdir(dirname(lock), { recursive: true });
    await writeFile(lock, '');
    const at = Date.now();
    await assert.rejects(
      createWorktree(repo.dir, worktreePath(repo.dir, 't4.1'), 'switchyard/t4/1', base),
      (e: unknown) =>
        isSwitchyardError(e, 'git-failed') &&
        /could not create worktree .*t4\.1 on switchyard\/t4\/1 .*cannot lock ref 'refs\/heads\/switchyard\/t4\/1'/s.test(
          e.message,
        ),
    );
    // Five waits of 50 ms doubling (±20 %): at least about 1.2 s.
    assert.ok(Date.now() - at >= 1_000, `gave up after ${Date.now() - at} ms`);
  });

  it('an empty change gives an empty diff', async () => {
    const base = await headCommit(repo.dir);
    const path = worktreePath(repo.dir, 't2.1');
    await createWorktree(repo.dir, path, 'switchyard/t2/1', base);
    const change = await captureChange(path, base, 'nothing');
    assert.equal(change.diff, '');
    assert.equal(change.headCommit, base);
  });

  it("removes a worktree and git's record of it (named in its .git file) as `worktree remove` does", async () => {
    const base = await headCommit(repo.dir);
    const path = worktreePath(repo.dir, 't2.1');
    await createWorktree(repo.dir, path, 'switchyard/t2/1', base);
    await writeFile(join(path, 'left.txt'), 'uncommitted\n');
    const gitDir = /^gitdir: (.+)$/m.exec(await readFile(join(path, '.git'), 'utf8'))?.[1]?.trim() ?? '';
    await removeWorktree(repo.dir, path);
    await assert.rejects(readFile(join(path, '.git')), /ENOENT/, 'the folder is gone');
    await assert.rejects(readFile(join(gitDir, 'HEAD')), /ENOENT/, "git's record is gone");
    const listed = await repo.git('worktree', 'list', '--porcelain');
    assert.equal(listed.match(/^worktree /gm)?.length, 1, listed);
    const dryRun = await repo.git('worktree', 'prune', '--dry-run', '-v');
    assert.equal(dryRun, '', 'nothing left to prune');
    assert.match(await repo.git('branch', '--list', 'switchyard/t2/1'), /switchyard\/t2\/1/, 'the branch stays');
  });

  it('leaves a worktree git has locked to git', async () => {
    const base = await headCommit(repo.dir);
    const path = worktreePath(repo.dir, 't3.1');
    await createWorktree(repo.dir, path, 'switchyard/t3/1', base);
    await repo.git('worktree', 'lock', path);
    await removeWorktree(repo.dir, path);
    // git refuses to remove a locked worktree (`remove --force` once); the folder goes, git keeps its locked record.
    await assert.rejects(readFile(join(path, '.git')), /ENOENT/);
    assert.match(await repo.git('worktree', 'list', '--porcelain'), /t3\.1[\s\S]*locked/);
  });

  it('refuses to remove a folder that is not a Switchyard worktree', async () => {
    await assert.rejects(removeWorktree(repo.dir, repo.dir), /not a Switchyard worktree/);
  });

  it('names a folder that is not a git repository', async () => {
    const plain = await makeTempDir();
    try {
      await assert.rejects(
        resolveRepoRoot(plain.dir),
        (e: unknown) =>
          isSwitchyardError(e, 'not-a-git-repo') && e.message.includes(plain.dir) && /git init/.test(e.message),
      );
    } finally {
      await plain.cleanup();
    }
  });
});

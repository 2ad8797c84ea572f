import assert from 'node:assert/strict';
import { readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../../../src/core/git/gitExec';
import { moveRef, releaseRefMoves } from '../../../src/core/git/refMoves';
import { makeTempRepo } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

/** The `git update-ref` processes whose working folder is `dir`. */
async function updateRefProcesses(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => undefined);
    if (cwd !== dir) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes('update-ref')) found.push(Number(entry));
  }
  return found;
}

const revParse = async (dir: string, rev: string) => (await git(dir, ['rev-parse', rev])).stdout.trim();

describe('moveRef: compare-and-swap through one long-lived git update-ref --stdin, answered asynchronously', function () {
  this.timeout(30_000);
  if (process.platform !== 'linux') return;

  it('moves a ref only from the expected old value, and leaves no git process behind once released', async () => {
    const repo = await makeTempRepo();
    try {
      const first = await revParse(repo.dir, 'HEAD');
      await git(repo.dir, ['commit', '--allow-empty', '-m', 'second']);
      const second = await revParse(repo.dir, 'HEAD');
      assert.equal(await moveRef(repo.dir, 'refs/heads/target', first, undefined, 'test: create'), true);
      // Only if it does not exist yet: refused now that it does.
      assert.equal(await moveRef(repo.dir, 'refs/heads/target', second, undefined, 'test: create'), false);
      assert.equal(await moveRef(repo.dir, 'refs/heads/target', second, first, 'test: move'), true);
      // The old value no longer matches: refused, and the ref stays.
      assert.equal(await moveRef(repo.dir, 'refs/heads/target', first, first, 'test: move'), false);
      assert.equal(await revParse(repo.dir, 'refs/heads/target'), second);
      assert.equal(await moveRef(repo.dir, 'refs/heads/target', first, second, 'test: move'), true);
      assert.ok((await updateRefProcesses(repo.dir)).length > 0, 'git update-ref --stdin stays between moves');
      releaseRefMoves();
      await until('no git update-ref left in the repository after the release', async () => {
        return (await updateRefProcesses(repo.dir)).length === 0;
      });
      // The next move starts another one.
      assert.equal(await moveRef(repo.dir, 'refs/heads/target', second, first, 'test: move'), true);
      assert.equal(await revParse(repo.dir, 'refs/heads/target'), second);
      releaseRefMoves();
      await until('no git update-ref left after the second release', async () => {
        return (await updateRefProcesses(repo.dir)).length === 0;
      });
    } finally {
      await repo.cleanup();
    }
  });

  it('does not hold the calling thread while git waits for the ref lock', async () => {
    const repo = await makeTempRepo();
    try {
      const first = await revParse(repo.dir, 'HEAD');
      await git(repo.dir, ['commit', '--allow-empty', '-m', 'second']);
      const second = await revParse(repo.dir, 'HEAD');
      assert.equal(await moveRef(repo.dir, 'refs/heads/target', first, undefined, 'test: create'), true);
      // git waits up to 20 s for a held ref lock; this thread frees it once the move has been asked for. A move that
      // waited for git on this thread (as one inside a store transaction did) would wait the whole 20 s and fail.
      await git(repo.dir, ['config', 'core.filesRefLockTimeout', '20000']);
      const lock = join(repo.dir, '.git', 'refs', 'heads', 'target.lock');
      await writeFile(lock, '');
      const moving = moveRef(repo.dir, 'refs/heads/target', second, first, 'test: move');
      // The move is asked for in the queue's next turn; a move that held the thread would hold it there, before this.
      await new Promise((resolve) => setImmediate(resolve));
      await rm(lock);
      const freedAt = Date.now();
      assert.equal(await moving, true);
      assert.ok(Date.now() - freedAt < 10_000, 'the move ends soon after the lock is free');
      assert.equal(await revParse(repo.dir, 'refs/heads/target'), second);
    } finally {
      releaseRefMoves();
      await repo.cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { releaseRefUpdates, updateRefSync } from '../../../src/core/git/refUpdater';
import { makeTempRepo } from '../../helpers/tempRepo';

/** The `git update-ref --stdin` processes whose working folder is `dir`. */
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

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe('updateRefSync: one long-lived git update-ref --stdin, let go at the end of a drain', function () {
  this.timeout(30_000);
  if (process.platform !== 'linux') return;

  it('moves a ref only from the expected old value, and leaves no git process behind once released', async () => {
    const repo = await makeTempRepo();
    try {
      const first = (await repo.git('rev-parse', 'HEAD')).trim();
      await repo.git('commit', '-q', '--allow-empty', '-m', 'second');
      const second = (await repo.git('rev-parse', 'HEAD')).trim();
      assert.equal(updateRefSync(repo.dir, 'refs/heads/target', first, undefined, 'test: create'), true);
      assert.equal(updateRefSync(repo.dir, 'refs/heads/target', second, first, 'test: move'), true);
      // The old value no longer matches: refused, and the ref stays.
      assert.equal(updateRefSync(repo.dir, 'refs/heads/target', first, first, 'test: move'), false);
      assert.equal((await repo.git('rev-parse', 'refs/heads/target')).trim(), second);
      assert.equal(updateRefSync(repo.dir, 'refs/heads/target', first, second, 'test: move'), true);
      assert.ok((await updateRefProcesses(repo.dir)).length > 0, 'git update-ref --stdin stays between updates');
      releaseRefUpdates();
      assert.ok(
        await until(async () => (await updateRefProcesses(repo.dir)).length === 0, 5_000),
        'no git update-ref is left in the repository after the release',
      );
      // The next update starts another one.
      assert.equal(updateRefSync(repo.dir, 'refs/heads/target', second, first, 'test: move'), true);
      assert.equal((await repo.git('rev-parse', 'refs/heads/target')).trim(), second);
      releaseRefUpdates();
      assert.ok(await until(async () => (await updateRefProcesses(repo.dir)).length === 0, 5_000));
    } finally {
      await repo.cleanup();
    }
  });
});

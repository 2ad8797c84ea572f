import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, utimesSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { lockFs } from '../../../src/core/store/lockFs';

describe('lockFs: proper-lockfile through synchronous calls', () => {
  it('takes a lock, refuses a second taker, releases it, and takes over a stale lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-lockfs-'));
    const lockPath = join(dir, 'state.lock');
    const options = { lockfilePath: lockPath, realpath: false, fs: lockFs, stale: 10_000 };
    try {
      const release = await lockfile.lock(dir, options);
      assert.equal(existsSync(lockPath), true, 'the lock is a folder');
      await assert.rejects(lockfile.lock(dir, { ...options, retries: 0 }), /already being held/);
      await release();
      assert.equal(existsSync(lockPath), false, 'released');

      // A lock left by a dead process: its mtime is older than `stale`, so it is taken over.
      mkdirSync(lockPath);
      const old = new Date(Date.now() - 60_000);
      utimesSync(lockPath, old, old);
      const again = await lockfile.lock(dir, options);
      assert.equal(existsSync(lockPath), true);
      await again();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

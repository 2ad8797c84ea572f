import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HANDOFF_TURNS, type LockHold, currentHold, withFileLock } from '../../../src/core/store/fileLock';
import { makeTempDir } from '../../helpers/tempRepo';
import { untilValue } from '../../helpers/until';

describe('withFileLock (a lock file between processes, turns handed on within one)', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let lockPath: string;
  let children: ChildProcess[];
  const options = () => ({
    target: dir.dir,
    staleMs: 10_000,
    waitMs: 20_000,
    lockError: (e: Error) => new Error(`could not lock: ${e.message}`),
  });
  beforeEach(async () => {
    dir = await makeTempDir();
    lockPath = join(dir.dir, 'state.lock');
    children = [];
  });
  afterEach(async () => {
    for (const child of children) child.kill('SIGKILL');
    await dir.cleanup();
  });

  /** Another process that takes the lock, holds it `holdMs`, and says when (see lockHolder.ts). */
  function holder(holdMs: number, waitMs = 20_000) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve('test/fixtures/lockHolder.ts'), lockPath, dir.dir, String(holdMs), String(waitMs)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    const said = (word: string) => {
      const m = new RegExp(`^${word} (.*)$`, 'm').exec(out);
      return m ? m[1]! : undefined;
    };
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    return { said, exited };
  }

  it('hands the lock file on to callers queued in this process, at most HANDOFF_TURNS turns in a row', async () => {
    const holds: LockHold[] = [];
    let inside = 0;
    let most = 0;
    const turns = Array.from({ length: 2 * HANDOFF_TURNS + 3 }, () =>
      withFileLock(lockPath, options(), async () => {
        inside++;
        most = Math.max(most, inside);
        assert.ok(existsSync(lockPath), 'the lock file is held during a turn');
        holds.push(currentHold(lockPath)!);
        await new Promise((r) => setImmediate(r));
        inside--;
      }),
    );
    await Promise.all(turns);
    assert.equal(most, 1, 'turns never overlap');
    const distinct = [...new Set(holds)];
    assert.equal(distinct.length, 3, 'the lock file was taken once per HANDOFF_TURNS queued turns');
    assert.deepEqual(
      distinct.map((h) => holds.filter((x) => x === h).length),
      [HANDOFF_TURNS, HANDOFF_TURNS, 3],
    );
    assert.equal(existsSync(lockPath), false, 'let go once nobody waits');
    assert.equal(currentHold(lockPath), undefined);
  });

  it('takes the lock file anew for a caller that comes when nobody waits; an error reaches its caller', async () => {
    const first = await withFileLock(lockPath, options(), async () => currentHold(lockPath));
    assert.equal(existsSync(lockPath), false);
    await assert.rejects(
      withFileLock(lockPath, options(), async () => {
        throw new Error('inside the turn');
      }),
      /inside the turn/,
    );
    const second = await withFileLock(lockPath, options(), async () => currentHold(lockPath));
    assert.ok(first && second && first !== second);
    assert.equal(existsSync(lockPath), false);
  });

  it('lets another process in while this one keeps the lock busy, and never overlaps its hold', async function () {
    this.timeout(60_000);
    const ours: [number, number][] = [];
    let stop = false;
    // Two callers always queued: without the limits on handing on, the lock file would never be let go.
    const worker = async () => {
      while (!stop)
        await withFileLock(lockPath, options(), async () => {
          const start = Date.now();
          // A turn's work: it holds the lock a moment.
          await new Promise((r) => setTimeout(r, 1));
          ours.push([start, Date.now()]);
        });
    };
    const workers = [worker(), worker(), worker()];
    await untilValue('our turns to start', () => (ours.length > 20 ? true : undefined));
    const other = holder(300);
    const took = Number(await untilValue('the other process to take the lock', () => other.said('took'), 15_000));
    const left = Number(await untilValue('the other process to let go', () => other.said('left'), 15_000));
    const after = ours.length;
    await untilValue('our turns to go on', () => (ours.length > after + 5 ? true : undefined));
    stop = true;
    await Promise.all(workers);
    assert.equal(await other.exited, 0);
    const overlapping = ours.filter(([s, e]) => e > took && s < left);
    assert.deepEqual(overlapping, [], 'no turn of ours ran while the other process held the lock');
  });

  it('fails with the caller’s error when another process holds the lock past waitMs', async () => {
    const other = holder(5_000);
    await untilValue('the other process to take the lock', () => other.said('took'));
    const started = Date.now();
    await assert.rejects(
      withFileLock(lockPath, { ...options(), waitMs: 300 }, async () => assert.fail('must not run')),
      /^Error: could not lock: Lock file is already being held/,
    );
    assert.ok(Date.now() - started < 4_000, 'gave up after about waitMs');
  });
});

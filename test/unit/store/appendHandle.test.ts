import assert from 'node:assert/strict';
import { readFile, readdir, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppendHandle, HANDLE_IDLE_MS } from '../../../src/core/store/appendHandle';
import { JsonlAppender } from '../../../src/core/store/jsonlAppender';
import { makeTempDir } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';

/** Descriptors of this process open on `file` (Linux: /proc/self/fd). */
async function openOn(file: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd'))
    if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === file) count++;
  return count;
}

describe('AppendHandle (appends through a handle kept open between them)', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let file: string;
  beforeEach(async () => {
    dir = await makeTempDir();
    file = join(dir.dir, 'log.jsonl');
  });
  afterEach(() => dir.cleanup());

  it('appends in order through one open handle, closed by close() and opened again by the next append', async () => {
    const out = new AppendHandle(file);
    for (let i = 0; i < 50; i++) await out.append(`${i}\n`);
    assert.equal(await openOn(file), 1, 'one handle for all the appends');
    await out.close();
    assert.equal(await openOn(file), 0);
    await out.append(Buffer.from('tail\n'));
    await out.close();
    assert.equal(await readFile(file, 'utf8'), `${Array.from({ length: 50 }, (_, i) => `${i}\n`).join('')}tail\n`);
  });

  it('closes the handle after a second without an append', async function () {
    this.timeout(10_000);
    const out = new AppendHandle(file);
    await out.append('a\n');
    const appended = Date.now();
    assert.equal(await openOn(file), 1);
    await until('the idle handle to be closed', async () => (await openOn(file)) === 0, 5_000);
    const idle = Date.now() - appended;
    assert.ok(idle >= HANDLE_IDLE_MS - 50, `closed ${idle} ms after the append, not before it was idle a second`);
    await out.append('b\n');
    await out.close();
    assert.equal(await readFile(file, 'utf8'), 'a\nb\n');
  });

  it('reports a failed append and opens the file again at the next one (created if it is gone)', async () => {
    const out = new AppendHandle(join(dir.dir, 'missing', 'log.jsonl'));
    await assert.rejects(out.append('x\n'), /ENOENT/);
    const ok = new AppendHandle(file);
    await ok.append('1\n');
    await ok.close();
    await rm(file);
    await ok.append('2\n');
    await ok.close();
    assert.equal(await readFile(file, 'utf8'), '2\n');
  });

  it('JsonlAppender closes its file at flush, and writes after it still land', async () => {
    const log = new JsonlAppender(file);
    log.write('{"n":1}\n');
    log.write(Buffer.from('{"n":2}\n'));
    await log.flush();
    assert.equal(await openOn(file), 0, 'closed at flush');
    log.write('{"n":3}\n');
    await log.flush();
    assert.equal(await readFile(file, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n');
  });
});

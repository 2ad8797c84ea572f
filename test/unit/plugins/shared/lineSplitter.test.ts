import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { LineSplitter, readLines } from '../../../../plugins/shared/lineSplitter';

describe('line splitter: bounded lines', () => {
  it('holds at most maxLineBytes of a line: the rest is dropped up to the newline and counted in a marker', () => {
    const split = new LineSplitter(1000);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const out: string[] = [];
    for (let i = 0; i < 100; i++) out.push(...split.push(chunk)); // 6.5 MB without a newline
    assert.equal(out.length, 0);
    out.push(...split.push('yy\r\nnext\n')); // 'yy\r' is dropped too
    assert.deepEqual(out, [
      `${'x'.repeat(1000)} … [line cut: ${100 * 64 * 1024 - 1000 + 3} more bytes not kept]`,
      'next',
    ]);
    assert.equal(split.end(), undefined);
  });

  it('never cuts inside a character', () => {
    const split = new LineSplitter(10);
    // 'aaaaaaaaa' + '€' (3 bytes) crosses the 10-byte limit: the whole character goes.
    assert.deepEqual(split.push(Buffer.from(`${'a'.repeat(9)}€b\n`)), [
      `${'a'.repeat(9)} … [line cut: 4 more bytes not kept]`,
    ]);
  });

  it('a cut last line without a newline still comes out of end()', () => {
    const split = new LineSplitter(4);
    assert.deepEqual(split.push('abcdefgh'), []);
    assert.equal(split.end(), 'abcd … [line cut: 4 more bytes not kept]');
  });

  it('takes linear time: 20 MB on one line in 64 KiB chunks is split in well under a second', async () => {
    const started = performance.now();
    const chunks = (function* () {
      for (let i = 0; i < 320; i++) yield Buffer.alloc(64 * 1024, 'z');
    })();
    const lines: string[] = [];
    for await (const batch of readLines(Readable.from(chunks))) lines.push(...batch);
    assert.equal(lines.length, 1);
    assert.equal(
      lines[0]!.length,
      1024 * 1024 + ` … [line cut: ${320 * 64 * 1024 - 1024 * 1024} more bytes not kept]`.length,
    );
    assert.ok(performance.now() - started < 3_000, `${performance.now() - started} ms`);
  });
});

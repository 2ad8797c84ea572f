import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlTail } from '../../../src/core/panel/jsonlTail';

describe('JsonlTail (following the guard log and the trace)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sy-tail-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns only appended lines, waits for a torn line to end, and starts over when the file shrinks', async () => {
    const file = join(dir, 'log.jsonl');
    const tail = new JsonlTail(file);
    assert.deepEqual(await tail.read(), { lines: [], bad: 0, reset: false, missing: true });
    writeFileSync(file, '{"a":1}\n{"a":2}\n{"a":');
    assert.deepEqual((await tail.read()).lines, [{ a: 1 }, { a: 2 }]);
    appendFileSync(file, '3}\nnot json\n');
    const third = await tail.read();
    assert.deepEqual(third.lines, [{ a: 3 }]);
    assert.equal(third.bad, 1);
    assert.deepEqual((await tail.read()).lines, []);
    writeFileSync(file, '{"b":1}\n');
    const rotated = await tail.read();
    assert.equal(rotated.reset, true);
    assert.deepEqual(rotated.lines, [{ b: 1 }]);
  });

  it('reads only the tail of a huge file the first time', async () => {
    const file = join(dir, 'big.jsonl');
    writeFileSync(
      file,
      `${Array.from({ length: 1000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(80) })).join('\n')}\n`,
    );
    const read = await new JsonlTail(file, 10_000).read();
    assert.equal(read.reset, true);
    assert.ok(read.lines.length > 50 && read.lines.length < 120, `${read.lines.length} lines`);
    assert.deepEqual((read.lines.at(-1) as { i: number }).i, 999);
    assert.equal(read.bad, 0, 'the cut first line is skipped, not counted as bad');
  });
});

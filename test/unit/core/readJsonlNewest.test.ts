import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonlFile, zodLine } from '../../../src/core/store/jsonlFile';
import { readJsonlNewest } from '../../../src/core/store/readJsonlNewest';
import { makeTempDir } from '../../helpers/tempRepo';

const Line = z.object({ n: z.number(), s: z.string().optional() }).strict();
const check = zodLine(Line, 'a line');
const fail = (where: string, problem: string) => new Error(`${where}: ${problem}`);

describe('readJsonlNewest (the newest lines of a JSONL file, read from its end)', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let file: string;
  beforeEach(async () => {
    dir = await makeTempDir();
    file = join(dir.dir, 'log.jsonl');
  });
  afterEach(() => dir.cleanup());

  it('returns the newest lines as a whole read does, across chunk boundaries and multi-byte text', async () => {
    // ~1.1 MB: more than several doublings of the first 64 KiB chunk; multi-byte characters land on chunk edges.
    const lines = Array.from({ length: 9_000 }, (_, n) =>
      JSON.stringify({ n, s: `${'ä€😀'.repeat(n % 13)}x`.repeat(9) }),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
    const all = (await readJsonlFile(file, check, { damaged: fail })).values;
    for (const limit of [0, 1, 7, 150, 1_000, 8_999, 9_000, 20_000]) {
      const newest = await readJsonlNewest(file, check, { damaged: fail }, limit);
      assert.deepEqual(newest.values, all.slice(Math.max(0, all.length - limit)), `limit ${limit}`);
      assert.equal(newest.older, limit < all.length, `older at limit ${limit}`);
    }
  });

  it('drops a last line without its newline (a write that never completed); a missing file is empty', async () => {
    assert.deepEqual(await readJsonlNewest(file, check, { damaged: fail }, 5), {
      values: [],
      damaged: [],
      older: false,
    });
    await writeFile(file, '{"n":1}\n{"n":2}\n{"n":3}');
    const read = await readJsonlNewest(file, check, { damaged: fail }, 2);
    assert.deepEqual(read.values, [{ n: 1 }, { n: 2 }]);
    assert.equal(read.older, false);
    assert.deepEqual((await readJsonlNewest(file, check, { damaged: fail }, 1)).values, [{ n: 2 }]);
  });

  it('a damaged line among the newest is an error naming its place from the end; older ones are not read', async () => {
    await writeFile(file, 'garbage!!\n{"n":2}\n{"n":"three"}\n{"n":4}\n');
    await assert.rejects(
      readJsonlNewest(file, check, { damaged: fail }, 3),
      /log\.jsonl: line 2 from the end: not a line/,
    );
    assert.deepEqual((await readJsonlNewest(file, check, { damaged: fail }, 1)).values, [{ n: 4 }]);
    const skipped = await readJsonlNewest(file, check, { damaged: 'skip' }, 4);
    assert.deepEqual(skipped.values, [{ n: 2 }, { n: 4 }]);
    assert.deepEqual(
      skipped.damaged.map((d) => d.line),
      [4, 2],
    );
  });
});

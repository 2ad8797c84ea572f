import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonlFile, zodLine } from '../../../src/core/store/jsonlFile';
import { readTrace } from '../../../src/core/store/traceLog';
import { readRunLog } from '../../../src/core/store/runFiles';
import { ensureStateDir, STATE_DIR } from '../../../src/core/store/stateDir';
import { makeTempDir } from '../../helpers/tempRepo';

const Line = z.object({ n: z.number() }).strict();
const fail = (where: string, problem: string) => new Error(`${where}: ${problem}`);

describe('readJsonlFile (the one JSONL reader: journal, guard log, run events, trace)', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (dir = await makeTempDir()));
  afterEach(() => dir.cleanup());

  it('drops a torn last line and reports where the good bytes end; a missing file is empty', async () => {
    const file = join(dir.dir, 'log.jsonl');
    assert.deepEqual(await readJsonlFile(file, zodLine(Line, 'a line'), { damaged: fail }), {
      values: [],
      damaged: [],
    });
    const good = '{"n":1}\n{"n":2}\n';
    await writeFile(file, `${good}{"n":3`);
    const read = await readJsonlFile(file, zodLine(Line, 'a line'), { damaged: fail });
    assert.deepEqual(read.values, [{ n: 1 }, { n: 2 }]);
    assert.deepEqual(read.tornTail, { line: 3, keepBytes: Buffer.byteLength(good) });
    // Complete JSON without its newline is still a write that never completed.
    await writeFile(file, `${good}{"n":3}`);
    assert.deepEqual((await readJsonlFile(file, zodLine(Line, 'a line'), { damaged: fail })).tornTail?.line, 3);
  });

  it('a damaged line before the tail is an error naming file and line (not JSON, or refused by the schema)', async () => {
    const file = join(dir.dir, 'log.jsonl');
    await writeFile(file, '{"n":1}\ngarbage!!\n{"n":3}\n');
    await assert.rejects(readJsonlFile(file, zodLine(Line, 'a line'), { damaged: fail }), (e: Error) =>
      e.message.startsWith(`${file}:2: not valid JSON`),
    );
    await writeFile(file, '{"n":1}\n{"n":"two"}\n{"n":3}\n');
    await assert.rejects(readJsonlFile(file, zodLine(Line, 'a line'), { damaged: fail }), (e: Error) =>
      e.message.startsWith(`${file}:2: not a line: n: `),
    );
  });

  it('with damaged: skip, keeps the rest and lists what it skipped; blank lines are skipped unless they count as damage', async () => {
    const file = join(dir.dir, 'log.jsonl');
    await writeFile(file, '{"n":1}\n\n{"n":2}garbage\n{"n":3}\n');
    const read = await readJsonlFile(file, zodLine(Line, 'a line'), { damaged: 'skip' });
    assert.deepEqual(read.values, [{ n: 1 }, { n: 3 }]);
    assert.deepEqual(
      read.damaged.map((d) => d.line),
      [3],
    );
    await assert.rejects(
      readJsonlFile(file, zodLine(Line, 'a line'), { damaged: fail, blank: 'damaged' }),
      /log\.jsonl:2: not valid JSON/,
    );
  });

  it('the trace and run events skip a line torn by a crash and glued to the next append, and lines of another shape', async () => {
    await ensureStateDir(dir.dir);
    const state = join(dir.dir, STATE_DIR);
    const line = (type: string, message: string) =>
      `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', type, message })}\n`;
    // The rotated file ends torn: it must not swallow the first line of the current one.
    await writeFile(join(state, 'trace.1.jsonl'), `${line('decision', 'a')}{"ts":"2026`);
    await writeFile(
      join(state, 'trace.jsonl'),
      `${line('drain', 'b')}{"ts":"x","type":"deci${line('decision', 'c')}${line('bogus', 'd')}[1]\n`,
    );
    assert.deepEqual(
      (await readTrace(dir.dir)).map((l) => l.message),
      ['a', 'b'],
    );
    const events = join(dir.dir, 'events.jsonl');
    await writeFile(events, `${line('lane.event', 'e')}{"type":1}\n${line('host.decision', 'f')}`);
    assert.deepEqual(
      (await readRunLog(events)).map((l) => l.message),
      ['e', 'f'],
    );
  });
});

import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RunEventLog, readRunLog } from '../../../src/core/store/runFiles';
import { cutLine } from '../../../src/core/store/lineCut';
import { makeTempDir } from '../../helpers/tempRepo';

const MiB = 1024 * 1024;
const log = (line: string, stream = 'stdout') => ({ event: { type: 'log', stream, line } });

describe('run event log: capped lane output', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.cleanup());

  it('stores lines compactly (batched per stream) and reads them back one event a line, in order', async () => {
    const file = join(tmp.dir, 'runs', 'r1', 'events.jsonl');
    const events = new RunEventLog(file);
    events.append('decision', { message: 'started' });
    for (let i = 1; i <= 10_000; i++) events.append('lane', log(String(i), i % 1000 === 0 ? 'stderr' : 'stdout'));
    events.append('lane', { event: { type: 'text', text: 'hello' } });
    events.append('decision', { message: 'done' });
    await events.flush();
    const back = await readRunLog(file);
    assert.equal(back.length, 10_003);
    assert.equal(back[0]!.message, 'started');
    assert.deepEqual(
      back.slice(1, 10_001).map((l) => (l.event as { line: string }).line),
      Array.from({ length: 10_000 }, (_, i) => String(i + 1)),
    );
    assert.deepEqual(back[1000]!.event, { type: 'log', stream: 'stderr', line: '1000' });
    assert.deepEqual(back[10_001]!.event, { type: 'text', text: 'hello' });
    assert.equal(back[10_002]!.message, 'done');
    // 48,894 bytes of lines: one JSON line per batch, not ~100 bytes of envelope per line.
    const size = (await stat(file)).size;
    assert.ok(size < 48_894 * 1.5 + 2_000, `events.jsonl is ${size} bytes`);
    assert.ok((await readFile(file, 'utf8')).split('\n').length < 100);
  });

  it('keeps the head and the tail within maxBytes, counts what was dropped, and keeps every decision in time order', async () => {
    const file = join(tmp.dir, 'events.jsonl');
    const events = new RunEventLog(file, { maxBytes: MiB, maxLineChars: 1024 });
    const line = (i: number) => `line ${String(i).padStart(7, '0')} ${'.'.repeat(80)}`;
    const TOTAL = 60_000; // ~5.5 MB of output
    for (let i = 1; i <= TOTAL; i++) {
      events.append('lane', log(line(i)));
      if (i % 20_000 === 0) events.append('decision', { message: `checkpoint ${i}` });
      // Let batches close and writes go out now and then, as a real lane's output arrives.
      if (i % 5_000 === 0) await new Promise((r) => setImmediate(r));
    }
    await events.flush();
    assert.ok((await stat(file)).size <= MiB + 8 * 1024, `${(await stat(file)).size} bytes`);
    const back = await readRunLog(file);
    const kept = back
      .filter((l) => l.type === 'lane')
      .map((l) => Number((l.event as { line: string }).line.slice(5, 12)));
    const dropped = back.filter((l) => l.type === 'output-dropped') as unknown as {
      lines: number;
      events: number;
      bytes: number;
      message: string;
    }[];
    assert.equal(kept.length + dropped.reduce((s, d) => s + d.lines, 0), TOTAL, 'every line is kept or counted');
    assert.equal(kept[0], 1, 'the head starts at the first line');
    assert.equal(kept.at(-1), TOTAL, 'the tail ends at the last line');
    assert.deepEqual(
      kept,
      [...kept].sort((a, b) => a - b),
      'kept lines in order',
    );
    assert.ok(
      dropped.every(
        (d) => d.bytes > 0 && /line\(s\) of lane output .* dropped here: a run stores at most 1\.0 MiB/.test(d.message),
      ),
    );
    // Decisions are all there, each after the output that came before it.
    const order = back.map((l) =>
      l.type === 'lane'
        ? Number((l.event as { line: string }).line.slice(5, 12))
        : l.type === 'decision' && /^checkpoint/.test(String(l.message))
          ? -Number(String(l.message).split(' ')[1])
          : 0,
    );
    for (const cp of [20_000, 40_000, 60_000]) {
      const at = order.indexOf(-cp);
      assert.ok(at > 0, `checkpoint ${cp} stored`);
      assert.ok(
        order
          .slice(0, at)
          .filter((n) => n > 0)
          .every((n) => n <= cp),
        `nothing after line ${cp} comes before its checkpoint`,
      );
      assert.ok(
        order
          .slice(at)
          .filter((n) => n > 0)
          .every((n) => n > cp),
        `nothing before line ${cp} comes after its checkpoint`,
      );
    }
    assert.ok(
      back.some((l) => l.type === 'decision' && /^lane output passed 512\.0 KiB/.test(String(l.message))),
      'a notice says when the head was full',
    );
  });

  it('cuts long lines and long strings in other lane events with a marker counting the bytes not kept; decisions are not cut', async () => {
    const file = join(tmp.dir, 'events.jsonl');
    const events = new RunEventLog(file, { maxBytes: MiB, maxLineChars: 1000 });
    events.append('lane', log('€'.repeat(3000)));
    events.append('lane', { event: { type: 'text', text: 'y'.repeat(5000) } });
    events.append('decision', { message: 'z'.repeat(5000) });
    await events.flush();
    const back = await readRunLog(file);
    assert.equal(
      (back[0]!.event as { line: string }).line,
      `${'€'.repeat(1000)} … [line cut: 6000 more bytes not kept]`,
    );
    assert.equal(
      (back[1]!.event as { text: string }).text,
      `${'y'.repeat(1000)} … [line cut: 4000 more bytes not kept]`,
    );
    assert.equal(back[2]!.message, 'z'.repeat(5000));
  });

  it('caps worktree setup output like lane output; decisions around it are kept', async () => {
    const file = join(tmp.dir, 'runs', 'r1', 'events.jsonl');
    const events = new RunEventLog(file, { maxBytes: MiB, maxLineChars: 1024 });
    events.append('decision', { message: 'worktree setup: `npm ci`' });
    const line = 'y'.repeat(500);
    for (let i = 0; i < 10_000; i++) events.append('setup', log(`${i} ${line}`));
    events.append('decision', { message: 'worktree setup done' });
    await events.flush();
    const size = (await stat(file)).size;
    assert.ok(size < 1.2 * MiB, `events.jsonl is ${size} bytes for 5 MB of setup output`);
    const back = await readRunLog(file);
    assert.equal(back[0]!.message, 'worktree setup: `npm ci`');
    assert.ok(back.some((l) => l.message === 'worktree setup done'));
    const setupLines = back.filter((l) => l.type === 'setup' && (l.event as { type: string }).type === 'log');
    assert.ok(setupLines[0] && (setupLines[0].event as { line: string }).line.startsWith('0 '), 'the head is kept');
    assert.ok((setupLines.at(-1)!.event as { line: string }).line.startsWith('9999 '), 'the tail is kept');
    assert.ok(setupLines.length < 10_000, 'the middle is dropped');
  });

  it('adds up a cut the lane already made to the same line', () => {
    const fromLane = `${'a'.repeat(2000)} … [line cut: 5000 more bytes not kept]`;
    assert.equal(cutLine(fromLane, 500), `${'a'.repeat(500)} … [line cut: 6500 more bytes not kept]`);
  });
});

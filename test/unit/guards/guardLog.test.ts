import assert from 'node:assert/strict';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { appendGuardEvent, guardLogPath, readGuardEvents, type GuardEvent } from '../../../src/core/guards/guardLog';
import { guardCountsOver, guardStatusLines, loadGuardEvents } from '../../../src/core/report/guardStatusLines';
import { summarizeGuards } from '../../../src/core/report/guardSummary';
import { formatGuardEvent, runGuard } from '../../../src/core/guards/runGuard';
import { makeTempDir } from '../../helpers/tempRepo';

const event = (over: Partial<GuardEvent> = {}): GuardEvent =>
  ({
    v: 1,
    type: 'guard.verdict',
    ts: '2026-01-01T00:00:00.000Z',
    guard: 'conflict-markers',
    verdict: 'pass',
    rule: 'conflict-marker',
    evidence: [],
    durationMs: 3,
    ...over,
  }) as GuardEvent;

describe('guard log', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (dir = await makeTempDir()));
  afterEach(async () => dir.cleanup());

  it('appends verdicts as JSON lines under .switchyard/ (which ignores itself) and reads them back', async () => {
    await appendGuardEvent(dir.dir, event());
    await appendGuardEvent(
      dir.dir,
      event({ verdict: 'block', evidence: [{ file: 'a.ts', line: 3, message: 'conflict marker' }] }),
    );
    const events = await readGuardEvents(dir.dir);
    assert.deepEqual(
      events.map((e) => e.verdict),
      ['pass', 'block'],
    );
    assert.equal((await readFile(guardLogPath(dir.dir), 'utf8')).split('\n').length, 3);
    assert.equal(await readFile(`${dir.dir}/.switchyard/.gitignore`, 'utf8'), '*\n!config.json\n');
    assert.deepEqual(
      (await readGuardEvents(dir.dir, { limit: 1 })).map((e) => e.verdict),
      ['block'],
    );
  });

  it('refuses to write an event that does not match the schema', async () => {
    await assert.rejects(appendGuardEvent(dir.dir, event({ verdict: 'maybe' as 'pass' })));
  });

  it('tolerates a torn last line, and names file and line of any other bad line', async () => {
    await appendGuardEvent(dir.dir, event());
    await appendFile(guardLogPath(dir.dir), '{"v":1,"type":"guard.verd');
    assert.equal((await readGuardEvents(dir.dir)).length, 1);

    await writeFile(guardLogPath(dir.dir), `${JSON.stringify(event())}\nnot json\n${JSON.stringify(event())}\n`);
    await assert.rejects(readGuardEvents(dir.dir), /guards\.jsonl:2: not valid JSON/);
    await writeFile(guardLogPath(dir.dir), `${JSON.stringify({ ...event(), verdict: 'shrug' })}\n`);
    await assert.rejects(readGuardEvents(dir.dir), /guards\.jsonl:1: not a guard event: verdict/);
    await writeFile(guardLogPath(dir.dir), `${JSON.stringify({ ...event(), extra: 1 })}\n`);
    await assert.rejects(readGuardEvents(dir.dir), /Unrecognized key: "extra"/);
  });

  it('status and the tree summarize the newest verdicts, read from the end, saying what counts are over', async () => {
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify(
        event({ ts: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`, verdict: i % 3 ? 'pass' : 'warn' }),
      ),
    );
    // A damaged line older than the newest 25: not read, so not an error for the summary.
    await appendGuardEvent(dir.dir, event());
    await writeFile(guardLogPath(dir.dir), `not json\n${lines.join('\n')}\n`);
    const newest = await loadGuardEvents(dir.dir, 25);
    assert.equal(newest.events.length, 25);
    assert.equal(newest.events[0]?.ts, '2026-01-01T00:00:05.000Z');
    assert.equal(guardCountsOver(newest), 'counts over the newest 25 verdicts');
    assert.deepEqual(guardStatusLines(newest.events), [
      'conflict-markers pass (conflict-marker) 3 ms  [17 pass, 8 warn]',
    ]);
    const all = await loadGuardEvents(dir.dir, 31);
    assert.match(all.error ?? '', /guards\.jsonl: line 31 from the end: not valid JSON/);
    await writeFile(guardLogPath(dir.dir), `${lines.join('\n')}\n`);
    assert.equal(guardCountsOver(await loadGuardEvents(dir.dir, 1_000)), 'counts over all 30 verdicts');
  });

  it('no file: no verdicts', async () => {
    assert.deepEqual(await readGuardEvents(dir.dir), []);
  });

  describe('runGuard (fail-safe)', () => {
    it('records a verdict with its duration', async () => {
      const result = await runGuard('demo', { root: dir.dir, subject: 'push', runId: 'r1' }, async () => ({
        verdict: 'warn',
        rule: 'demo-rule',
        evidence: [{ message: 'hm' }],
      }));
      assert.deepEqual(
        [result.type, result.verdict, result.rule, result.subject, result.runId],
        ['guard.verdict', 'warn', 'demo-rule', 'push', 'r1'],
      );
      assert.ok(result.durationMs >= 0);
      assert.deepEqual(await readGuardEvents(dir.dir), [result]);
    });

    it('turns a crash into a guard.error event instead of throwing', async () => {
      const result = await runGuard('demo', { root: dir.dir }, async () => {
        throw new TypeError('cannot read properties of undefined\n  at somewhere');
      });
      assert.equal(result.type, 'guard.error');
      assert.equal(result.verdict, 'error');
      assert.equal(result.verdict === 'error' && result.error, 'cannot read properties of undefined at somewhere');
      assert.equal((await readGuardEvents(dir.dir))[0]?.verdict, 'error');
    });

    it('still returns the verdict when it cannot be recorded', async () => {
      await writeFile(`${dir.dir}/.switchyard`, 'a file where the folder should be');
      const result = await runGuard('demo', { root: dir.dir }, async () => ({
        verdict: 'block',
        rule: 'x',
        evidence: [],
      }));
      assert.equal(result.verdict, 'block');
      assert.match(result.recordError ?? '', /EEXIST|ENOTDIR/);
    });
  });

  it('summarizes the latest verdict per guard, optionally for one run, and formats one line', () => {
    const events = [
      event({ ts: '2026-01-01T00:00:01.000Z', runId: 'a' }),
      event({
        ts: '2026-01-01T00:00:02.000Z',
        guard: 'secret-scan',
        verdict: 'block',
        rule: 'secret',
        evidence: [{ file: 'x.ts', line: 2, message: 'possible secret [REDACTED 40 chars]' }, { message: 'more' }],
        runId: 'b',
      }),
      event({ ts: '2026-01-01T00:00:03.000Z', verdict: 'block', runId: 'b' }),
    ];
    const all = summarizeGuards(events);
    assert.deepEqual(
      all.map((s) => `${s.guard}:${s.last.verdict}:${s.counts.pass}/${s.counts.block}`),
      ['conflict-markers:block:1/1', 'secret-scan:block:0/1'],
    );
    assert.deepEqual(
      summarizeGuards(events, 'a').map((s) => s.counts.pass),
      [1],
    );
    assert.equal(
      formatGuardEvent(events[1]!),
      'secret-scan block (secret) 3 ms: x.ts:2: possible secret [REDACTED 40 chars] (+1 more)',
    );
  });
});

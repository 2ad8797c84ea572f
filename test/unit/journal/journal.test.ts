import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JournalWriter } from '../../../src/core/journal/journalWriter';
import { readJournal } from '../../../src/core/journal/journalReader';
import { CallFailedError, DurableCalls, idempotencyKey } from '../../../src/core/journal/durableCalls';
import { resumeRunJournal, startRunJournal } from '../../../src/core/journal/openRunJournal';
import { isSwitchyardError } from '../../../src/core/errors';
import { makeTempDir } from '../../helpers/tempRepo';
import { FilesJournalStore } from '../../../src/core/backend/filesJournalStore';
import { journalPath } from '../../../src/core/journal/journalFiles';

describe('journal', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let file: string;
  let journals: FilesJournalStore;
  beforeEach(async () => {
    tmp = await makeTempDir();
    journals = new FilesJournalStore(tmp.dir);
    file = journalPath(tmp.dir, 'r1');
    await mkdir(dirname(file), { recursive: true });
  });
  afterEach(async () => tmp.cleanup());

  async function journalWithCalls(): Promise<void> {
    const j = await startRunJournal(journals, 'r1', 'strict', { lane: 'x', attempt: 1, owner: 'me' });
    await j.calls.call({ kind: 'model', name: 'm', input: { q: 1 }, replay: 'safe' }, async () => 'answer');
    await j.calls.call({ kind: 'tool', name: 't', input: {}, replay: 'never' }, async () => 42);
    await j.writer.close();
  }

  it('writes one event a line with seq from 1 and outcomes that reference their intent', async () => {
    await journalWithCalls();
    const { events } = await readJournal(file);
    assert.deepEqual(
      events.map((e) => `${e.seq}:${e.type}`),
      ['1:run-started', '2:intent', '3:outcome', '4:intent', '5:outcome'],
    );
    const outcome = events[2]!;
    assert.ok(outcome.type === 'outcome' && outcome.intent === 2 && outcome.output === 'answer');
    assert.ok(events.every((e) => e.v === 1 && e.runId === 'r1'));
  });

  it('in `on` mode a safe intent does not wait, a never intent does, and order is kept', async () => {
    const writer = await JournalWriter.open(file, 'r1', 0);
    const calls = new DurableCalls(writer, 'on');
    const order: string[] = [];
    await calls.call({ kind: 'tool', name: 'safe', input: 1, replay: 'safe' }, async () => {
      order.push('safe ran');
      return 1;
    });
    await calls.call({ kind: 'tool', name: 'never', input: 2, replay: 'never' }, async () => {
      const text = await readFile(file, 'utf8');
      order.push(text.includes('"name":"never"') ? 'never ran after its intent was on disk' : 'never ran too early');
      return 2;
    });
    await writer.close();
    assert.deepEqual(order, ['safe ran', 'never ran after its intent was on disk']);
    assert.deepEqual(
      (await readJournal(file)).events.map((e) => e.seq),
      [1, 2, 3, 4],
    );
  });

  it('resume reads back completed calls, re-sends an interrupted model call, re-runs a safe tool, and reports a never tool as uncertain', async () => {
    const writer = await JournalWriter.open(file, 'r1', 0);
    writer.append(
      {
        type: 'intent',
        call: 1,
        kind: 'model',
        name: 'done',
        input: null,
        replay: 'safe',
        key: idempotencyKey('r1', 1),
      },
      true,
    );
    writer.append(
      {
        type: 'outcome',
        intent: 1,
        call: 1,
        ok: true,
        output: 'old',
        usage: { inputTokens: 10, outputTokens: 1, costUsd: 0.5 },
      },
      true,
    );
    writer.append(
      {
        type: 'intent',
        call: 2,
        kind: 'model',
        name: 'cut',
        input: null,
        replay: 'safe',
        key: idempotencyKey('r1', 2),
      },
      true,
    );
    writer.append({ type: 'outcome', intent: 3, call: 2, ok: true, output: 'fine' }, true);
    writer.append(
      {
        type: 'intent',
        call: 3,
        kind: 'model',
        name: 'resend',
        input: null,
        replay: 'safe',
        key: idempotencyKey('r1', 3),
      },
      true,
    );
    await writer.close();
    // Simulate the crash after the model intent: add a safe and a never tool intent by hand.
    const more = await JournalWriter.open(file, 'r1', 5);
    more.append(
      {
        type: 'intent',
        call: 4,
        kind: 'tool',
        name: 'safe-tool',
        input: null,
        replay: 'safe',
        key: idempotencyKey('r1', 4),
      },
      true,
    );
    more.append(
      {
        type: 'intent',
        call: 5,
        kind: 'tool',
        name: 'never-tool',
        input: null,
        replay: 'never',
        key: idempotencyKey('r1', 5),
      },
      true,
    );
    await more.close();

    const j = await resumeRunJournal(journals, 'r1', 'strict', 'me-again', 'me');
    const executed: string[] = [];
    const run = (name: string, kind: 'model' | 'tool', replay: 'safe' | 'never') =>
      j.calls.call(
        { kind, name, input: null, replay, usage: () => ({ inputTokens: 1, outputTokens: 1, costUsd: 0.25 }) },
        async () => {
          executed.push(name);
          return `new ${name}`;
        },
      );
    assert.deepEqual(await run('done', 'model', 'safe'), {
      status: 'ok',
      value: 'old',
      replayed: true,
      idempotencyKey: idempotencyKey('r1', 1),
    });
    assert.equal((await run('cut', 'model', 'safe')).status, 'ok');
    assert.deepEqual(await run('resend', 'model', 'safe'), {
      status: 'ok',
      value: 'new resend',
      replayed: false,
      idempotencyKey: idempotencyKey('r1', 3),
    });
    assert.equal((await run('safe-tool', 'tool', 'safe')).status, 'ok');
    const uncertain = await run('never-tool', 'tool', 'never');
    assert.equal(uncertain.status, 'uncertain');
    assert.match(
      uncertain.status === 'uncertain' ? uncertain.message : '',
      /^uncertain: this call \(never-tool\) may have executed.*verify with idempotency key sy-[0-9a-f]{24}/,
    );
    await run('fresh', 'tool', 'safe');
    await j.writer.close();
    assert.deepEqual(executed, ['resend', 'safe-tool', 'fresh']);
    assert.deepEqual(j.calls.counts, { replayed: 2, resent: 1, rerun: 1, uncertain: 1 });
    assert.equal(j.calls.totalUsage().costUsd, 0.5 + 0.25 * 3, 'the replayed call is not paid again');
    const after = (await readJournal(file)).events;
    assert.ok(after.some((e) => e.type === 'resumed' && e.owner === 'me-again' && e.previousOwner === 'me'));
    assert.ok(after.some((e) => e.type === 'outcome' && e.uncertain === true && e.intent === 7));
  });

  it('a failed call fails the same way when replayed, without running again', async () => {
    const j = await startRunJournal(journals, 'r1', 'strict', { lane: 'x', attempt: 1, owner: 'me' });
    await assert.rejects(
      j.calls.call({ kind: 'tool', name: 'boom', input: null, replay: 'safe' }, async () => {
        throw new Error('exit 1');
      }),
      CallFailedError,
    );
    await j.writer.close();
    const again = await resumeRunJournal(journals, 'r1', 'strict', 'me2');
    let ran = false;
    await assert.rejects(
      again.calls.call({ kind: 'tool', name: 'boom', input: null, replay: 'safe' }, async () => {
        ran = true;
      }),
      /exit 1/,
    );
    assert.equal(ran, false);
    await again.writer.close();
  });

  it('refuses to resume a lane that makes different calls than the journal recorded', async () => {
    await journalWithCalls();
    const j = await resumeRunJournal(journals, 'r1', 'strict', 'me2');
    await assert.rejects(
      j.calls.call({ kind: 'tool', name: 'other', input: null, replay: 'safe' }, async () => 1),
      (e: unknown) => isSwitchyardError(e, 'journal-diverged') && /call 1 was model "m"/.test(e.message),
    );
    await j.writer.close();
  });

  describe('corruption', () => {
    it('a torn last line is dropped with a recorded warning', async () => {
      await journalWithCalls();
      await appendFile(file, '{"v":1,"seq":6,"ts":"2026-01-01T00:00:00Z","runId":"r1","type":"inte');
      const read = await readJournal(file);
      assert.equal(read.events.length, 5);
      assert.deepEqual(read.tornTail?.line, 6);
      const j = await resumeRunJournal(journals, 'r1', 'strict', 'me2');
      await j.writer.close();
      assert.deepEqual(j.warnings.length, 1);
      assert.match(j.warnings[0]!, /journal\.jsonl:6: torn last line/);
      const after = (await readJournal(file)).events;
      assert.deepEqual(
        after.slice(5).map((e) => e.type),
        ['warning', 'resumed'],
      );
      assert.equal(after[5]!.seq, 6);
    });

    const damage: [string, (lines: string[]) => string[], RegExp][] = [
      ['a garbage line in the middle', (l) => [l[0]!, 'garbage!!', ...l.slice(1)], /journal\.jsonl:2: not valid JSON/],
      [
        'an unknown event type',
        (l) => [l[0]!, l[1]!.replace('"type":"intent"', '"type":"teleport"'), ...l.slice(2)],
        /journal\.jsonl:2: unknown event type "teleport"/,
      ],
      ['a seq gap', (l) => [l[0]!, ...l.slice(2)], /journal\.jsonl:2: seq 3 where 2 was expected/],
      [
        'an invalid field',
        (l) => [l[0]!, l[1]!.replace('"kind":"model"', '"kind":"oracle"'), ...l.slice(2)],
        /journal\.jsonl:2: invalid intent event: kind/,
      ],
    ];
    for (const [what, mutate, expected] of damage) {
      it(`${what} stops resume with file and line, and nothing is rewritten`, async () => {
        await journalWithCalls();
        const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
        const damaged = `${mutate(lines).join('\n')}\n`;
        await writeFile(file, damaged);
        await assert.rejects(
          resumeRunJournal(journals, 'r1', 'strict', 'me2'),
          (e: unknown) => isSwitchyardError(e, 'journal-corrupt') && expected.test(e.message),
        );
        assert.equal(await readFile(file, 'utf8'), damaged);
      });
    }
  });
});

import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import pg from 'pg';
import { isSwitchyardError } from '../../../src/core/errors';
import { PostgresBackend } from '../../../src/core/backend/postgres/postgresBackend';
import { idempotencyKey } from '../../../src/core/journal/durableCalls';
import { resumeRunJournal, startRunJournal } from '../../../src/core/journal/openRunJournal';
import { sqlRows as sql, startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { until } from '../../helpers/until';

describe('PostgreSQL backend: journals and leases', function () {
  this.timeout(60_000);
  let server: PostgresServer;
  let dbCount = 0;
  let url: string;
  let backend: PostgresBackend;
  const others: PostgresBackend[] = [];
  const rows = async (runId = 'r1') =>
    await sql<{ seq: number; event: string }>(
      url,
      'SELECT seq, event FROM sy_journal_events WHERE run_id = $1 ORDER BY seq',
      [runId],
    );

  before(async () => {
    server = await startPostgres({ fsync: false });
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    url = await server.createDatabase(`sy_journal_${++dbCount}`);
    backend = await PostgresBackend.open({ kind: 'postgres', url, project: 'p' });
  });
  afterEach(async () => {
    await Promise.all([backend.close(), ...others.splice(0).map((b) => b.close())]);
  });

  /** A journal of run r1 with a completed model call and a completed never tool call, written by `me`. */
  async function journalWithCalls(): Promise<void> {
    await backend.leases.acquire('r1', 'me', 60_000);
    const j = await startRunJournal(backend.journals, 'r1', 'strict', { lane: 'x', attempt: 1, owner: 'me' });
    await j.calls.call({ kind: 'model', name: 'm', input: { q: 1 }, replay: 'safe' }, async () => 'answer');
    await j.calls.call({ kind: 'tool', name: 't', input: {}, replay: 'never' }, async () => 42);
    await j.writer.close();
  }

  describe('journal', () => {
    it('keeps events in order with seq from 1, as rows of the run', async () => {
      await journalWithCalls();
      const { events, where } = await backend.journals.read('r1');
      assert.deepEqual(
        events.map((e) => `${e.seq}:${e.type}`),
        ['1:run-started', '2:intent', '3:outcome', '4:intent', '5:outcome'],
      );
      const outcome = events[2]!;
      assert.ok(outcome.type === 'outcome' && outcome.intent === 2 && outcome.output === 'answer');
      assert.ok(events.every((e) => e.v === 1 && e.runId === 'r1'));
      assert.match(where, /sy_journal_events \(project p, run r1\)$/);
      assert.deepEqual(
        (await rows()).map((r) => r.seq),
        [1, 2, 3, 4, 5],
      );
      assert.deepEqual((await backend.journals.read('other')).events, [], 'a run without rows reads as empty');
    });

    it('group commit (`on`) writes every queued event once, in order', async () => {
      await backend.leases.acquire('r1', 'me', 60_000);
      const sink = await backend.journals.openSink('r1', 0, 'me');
      for (let i = 0; i < 30; i++) sink.append({ type: 'warning', message: `w${i}` }, i % 10 === 9);
      await sink.close();
      const { events } = await backend.journals.read('r1');
      assert.deepEqual(
        events.map((e) => (e.type === 'warning' ? e.message : e.type)),
        Array.from({ length: 30 }, (_, i) => `w${i}`),
      );
    });

    // line-length: data-table, journal rows quoted whole as the server stores them
    const damage: [string, string, RegExp][] = [
      ['garbage', 'garbage!!', /not valid JSON/],
      [
        'an unknown event type',
        '{"v":1,"seq":6,"ts":"2026-01-01T00:00:00Z","runId":"r1","type":"teleport"}',
        /unknown event type "teleport"/,
      ],
      [
        'an invalid field',
        '{"v":1,"seq":6,"ts":"2026-01-01T00:00:00Z","runId":"r1","type":"intent","call":3,"kind":"oracle","name":"x","input":null,"replay":"safe","key":"k"}',
        /invalid intent event: kind/,
      ],
      [
        'a wrong seq',
        '{"v":1,"seq":9,"ts":"2026-01-01T00:00:00Z","runId":"r1","type":"warning","message":"m"}',
        /seq 9 where 6 was expected/,
      ],
    ];
    // line-length: end
    for (const [what, line, expected] of damage) {
      it(`a row with ${what} (inserted by hand) fails read and resume with journal-corrupt naming the run and seq`, async () => {
        await journalWithCalls();
        await sql(url, `INSERT INTO sy_journal_events (project, run_id, seq, event) VALUES ('p', 'r1', 6, $1)`, [line]);
        const corrupt = (e: unknown) => {
          assert.ok(isSwitchyardError(e, 'journal-corrupt'), inspect(e));
          assert.match(e.message, /sy_journal_events \(project p, run r1\) seq 6: /);
          assert.match(e.message, expected);
          return true;
        };
        await assert.rejects(backend.journals.read('r1'), corrupt);
        await backend.leases.acquire('r1', 'me2', 60_000);
        await assert.rejects(resumeRunJournal(backend.journals, 'r1', 'strict', 'me2', 'me'), corrupt);
        assert.equal((await rows()).length, 6, 'nothing was written');
      });
    }

    it('UPDATE and DELETE of journal rows are refused by the database', async () => {
      await journalWithCalls();
      await assert.rejects(
        sql(url, `UPDATE sy_journal_events SET event = 'x' WHERE seq = 2`),
        /switchyard journal events are append-only/,
      );
      await assert.rejects(
        sql(url, 'DELETE FROM sy_journal_events WHERE seq = 5'),
        /switchyard journal events are append-only/,
      );
      assert.equal((await backend.journals.read('r1')).events.length, 5);
    });

    it('a sink whose owner lost the lease cannot append: lease-held, and nothing lands', async () => {
      await backend.leases.acquire('r1', 'me', 60_000);
      const j = await startRunJournal(backend.journals, 'r1', 'strict', { lane: 'x', attempt: 1, owner: 'me' });
      await j.writer.append({ type: 'warning', message: 'still mine' }, true).durable;
      const other = await PostgresBackend.open({ kind: 'postgres', url, project: 'p' });
      others.push(other);
      await other.leases.acquire('r1', 'thief', 60_000);
      await assert.rejects(
        j.writer.append({ type: 'warning', message: 'too late' }, true).durable,
        (e: unknown) => isSwitchyardError(e, 'lease-held') && /\(me\) no longer holds the run's lease/.test(e.message),
      );
      assert.throws(
        () => j.writer.append({ type: 'warning', message: 'later' }, false),
        (e: unknown) => isSwitchyardError(e, 'lease-held'),
        'the sink stays failed',
      );
      await assert.rejects(j.writer.sync(), (e: unknown) => isSwitchyardError(e, 'lease-held'));
      assert.deepEqual(
        (await rows()).map((r) => r.seq),
        [1, 2],
      );

      // The new owner resumes; the old sink (were it still alive) cannot write over the new owner's seq.
      const resumed = await resumeRunJournal(other.journals, 'r1', 'strict', 'thief', 'me');
      await resumed.writer.close();
      const late = await backend.journals.openSink('r1', 2, 'me');
      await assert.rejects(
        late.append({ type: 'warning', message: 'stale' }, true).durable,
        (e: unknown) => isSwitchyardError(e, 'lease-held') && /event 3 was written by another process/.test(e.message),
      );
      const events = (await backend.journals.read('r1')).events;
      assert.deepEqual(
        events.map((e) => e.type),
        ['run-started', 'warning', 'resumed'],
      );
    });

    it('an append racing a takeover lands before the new owner reads the journal, never after it', async () => {
      // Rows with "slow" take 500 ms to insert: the old owner's batch is still in flight when the run is taken over.
      await sql(
        url,
        `CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.event LIKE '%"slow"%' THEN PERFORM pg_sleep(0.5); END IF; RETURN NEW; END $$;
        CREATE TRIGGER slow_insert BEFORE INSERT ON sy_journal_events FOR EACH ROW EXECUTE FUNCTION slow_insert()`,
      );
      await backend.leases.acquire('r1', 'me', 60_000);
      const sink = await backend.journals.openSink('r1', 0, 'me');
      await sink.append({ type: 'warning', message: 'one' }, true).durable;
      sink.append({ type: 'warning', message: 'slow' }, false);
      const old = sink.append({ type: 'warning', message: 'after slow' }, true).durable.then(
        () => 'written',
        (e: unknown) => (isSwitchyardError(e, 'lease-held') ? 'fenced' : e),
      );
      await until(
        "the old owner's slow row to be inserting",
        async () =>
          (
            await sql(
              url,
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'`,
            )
          ).length === 1,
      );
      const other = await PostgresBackend.open({ kind: 'postgres', url, project: 'p' });
      others.push(other);
      await other.leases.acquire('r1', 'thief', 60_000);
      const j = await resumeRunJournal(other.journals, 'r1', 'strict', 'thief', 'me');
      const outcome = await old;
      assert.equal(
        (await j.calls.call({ kind: 'tool', name: 't', input: null, replay: 'safe' }, async () => 1)).status,
        'ok',
        'the new owner keeps writing',
      );
      await j.writer.close();
      const events = (await backend.journals.read('r1')).events.map((e) => (e.type === 'warning' ? e.message : e.type));
      const resumedAt = events.indexOf('resumed');
      assert.deepEqual(
        events.slice(resumedAt),
        ['resumed', 'intent', 'outcome'],
        'nothing of the old owner after the takeover',
      );
      assert.deepEqual(
        events.slice(0, resumedAt),
        outcome === 'written' ? ['one', 'slow', 'after slow'] : ['one'],
        `old owner's batch: ${inspect(outcome)}`,
      );
    });

    it('a failed write stops the sink: nothing queued behind it is written (no seq gap), and every waiter hears of it', async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        // A write the server refuses (as a full disk or a statement timeout would).
        await sql(
          url,
          `CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.event LIKE '%poison%' THEN RAISE EXCEPTION 'simulated write failure'; END IF;
              RETURN NEW;
            END $$;
          CREATE TRIGGER refuse_poison BEFORE INSERT ON sy_journal_events
            FOR EACH ROW EXECUTE FUNCTION refuse_poison()`,
        );
        await backend.leases.acquire('r1', 'me', 60_000);
        const sink = await backend.journals.openSink('r1', 0, 'me');
        await sink.append({ type: 'warning', message: 'one' }, true).durable;
        const refused = sink.append({ type: 'warning', message: 'poison' }, true).durable;
        const queued = sink.append({ type: 'warning', message: 'queued behind it' }, true).durable;
        const lazy = sink.append({ type: 'warning', message: 'not durable' }, false).durable;
        await assert.rejects(refused, /write failed: .*simulated write failure/);
        await assert.rejects(queued, /simulated write failure/);
        await lazy;
        await assert.rejects(sink.close(), /simulated write failure/);
        assert.deepEqual(
          (await rows()).map((r) => r.seq),
          [1],
        );
        assert.equal((await backend.journals.read('r1')).events.length, 1, 'the journal stays readable');

        // The same when the lease is gone: two failing batches, no rejection left unhandled.
        await backend.leases.acquire('r2', 'me', 60_000);
        const fenced = await backend.journals.openSink('r2', 0, 'me');
        await backend.leases.acquire('r2', 'thief', 60_000);
        fenced.append({ type: 'warning', message: 'x' }, false);
        await assert.rejects(fenced.append({ type: 'warning', message: 'y' }, true).durable, (e: unknown) =>
          isSwitchyardError(e, 'lease-held'),
        );
        // Every waiter hears of a failure at once (the sink rejects them together): one that nobody handled has been
        // reported by the next turn of the event loop.
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(unhandled, []);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });

    it('resume replays completed calls, re-sends an interrupted model call, re-runs a safe tool and reports a never tool uncertain', async () => {
      await backend.leases.acquire('r1', 'me', 60_000);
      const writer = await backend.journals.openSink('r1', 0, 'me');
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
          name: 'resend',
          input: null,
          replay: 'safe',
          key: idempotencyKey('r1', 2),
        },
        true,
      );
      writer.append(
        {
          type: 'intent',
          call: 3,
          kind: 'tool',
          name: 'safe-tool',
          input: null,
          replay: 'safe',
          key: idempotencyKey('r1', 3),
        },
        true,
      );
      await writer.append(
        {
          type: 'intent',
          call: 4,
          kind: 'tool',
          name: 'never-tool',
          input: null,
          replay: 'never',
          key: idempotencyKey('r1', 4),
        },
        true,
      ).durable;
      // The process dies here; another takes the run over and resumes.
      const other = await PostgresBackend.open({ kind: 'postgres', url, project: 'p' });
      others.push(other);
      await other.leases.acquire('r1', 'me-again', 60_000);
      const j = await resumeRunJournal(other.journals, 'r1', 'strict', 'me-again', 'me');
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
      assert.deepEqual(await run('resend', 'model', 'safe'), {
        status: 'ok',
        value: 'new resend',
        replayed: false,
        idempotencyKey: idempotencyKey('r1', 2),
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
      assert.deepEqual(j.calls.counts, { replayed: 1, resent: 1, rerun: 1, uncertain: 1 });
      assert.equal(j.calls.totalUsage().costUsd, 0.5 + 0.25 * 3, 'the replayed call is not paid again');
      const after = (await backend.journals.read('r1')).events;
      assert.deepEqual(
        after.map((e) => e.seq),
        Array.from({ length: after.length }, (_, i) => i + 1),
      );
      assert.ok(after.some((e) => e.type === 'resumed' && e.owner === 'me-again' && e.previousOwner === 'me'));
      assert.ok(after.some((e) => e.type === 'outcome' && e.uncertain === true && e.intent === 5));
    });
  });

  describe('leases', () => {
    const owners = async () =>
      sql<{ run_id: string; owner: string }>(url, 'SELECT run_id, owner FROM sy_run_leases ORDER BY run_id');
    const leaseIn = (runId: string) => backend.state.update((_s, leases) => leases.get(runId));
    /** Whether the lease of `runId` has expired by the server's clock (undefined: there is none). */
    const expired = async (runId: string) =>
      (
        await sql<{ expired: boolean }>(
          url,
          'SELECT expires_at <= clock_timestamp() AS expired FROM sy_run_leases WHERE run_id = $1',
          [runId],
        )
      )[0]?.expired;

    it('acquire, renew, release and handBack follow the owner', async () => {
      await backend.leases.acquire('r1', 'a', 60_000);
      assert.equal(await backend.leases.renew('r1', 'a', 60_000), undefined);
      await backend.leases.acquire('r1', 'b', 60_000);
      assert.equal(await backend.leases.renew('r1', 'a', 60_000), 'b', 'renew names the owner after a takeover');
      assert.deepEqual(await owners(), [{ run_id: 'r1', owner: 'b' }], 'and does not take the lease back');
      await backend.leases.release('r1', 'a');
      await backend.leases.handBack('r1', 'a');
      assert.deepEqual(
        await owners(),
        [{ run_id: 'r1', owner: 'b' }],
        'release and handBack by a former owner change nothing',
      );
      assert.ok(Date.parse((await leaseIn('r1'))!.expiresAt) > Date.now() + 50_000);

      await backend.leases.handBack('r1', 'b');
      const handedBack = await leaseIn('r1');
      assert.equal(handedBack?.owner, 'b');
      assert.ok(Date.parse(handedBack!.expiresAt) <= Date.now(), 'a handed-back lease reads as expired at once');
      await backend.leases.release('r1', 'b');
      assert.deepEqual(await owners(), []);
      assert.equal(await leaseIn('r1'), undefined);
      assert.equal(
        await backend.leases.renew('r1', 'a', 60_000),
        undefined,
        'renewing a released lease takes it again',
      );
      assert.deepEqual(await owners(), [{ run_id: 'r1', owner: 'a' }]);
    });

    it('the lease view in a state update reads expiry on the server clock and writes takeovers with the update', async () => {
      await backend.leases.acquire('short', 'a', 200);
      await backend.leases.acquire('long', 'a', 60_000);
      await until('the short lease to expire on the server clock', async () => (await expired('short')) === true);
      const [short, long] = await backend.state.update((_s, leases) => [leases.get('short'), leases.get('long')]);
      const now = Date.now();
      assert.ok(
        short && Date.parse(short.expiresAt) < now,
        `expired: ${short?.expiresAt} < ${new Date(now).toISOString()}`,
      );
      assert.ok(Date.parse(short.expiresAt) > now - 5_000, 'about 200 ms after it was acquired');
      assert.ok(long && Date.parse(long.expiresAt) > now + 55_000 && Date.parse(long.expiresAt) <= now + 60_000);
      assert.ok(Math.abs(Date.parse(long.heartbeatAt) - now) < 5_000);

      const other = await PostgresBackend.open({ kind: 'postgres', url, project: 'p' });
      others.push(other);
      const taken = await other.state.update((_s, leases) => {
        const lease = leases.get('short');
        if (!lease || Date.parse(lease.expiresAt) >= Date.now()) return false;
        leases.take('short', 'b', 60_000);
        return leases.get('short')?.owner === 'b';
      });
      assert.equal(taken, true);
      assert.deepEqual(await owners(), [
        { run_id: 'long', owner: 'a' },
        { run_id: 'short', owner: 'b' },
      ]);
      assert.equal(await backend.leases.renew('short', 'a', 60_000), 'b');
    });

    it('expiry is measured when the update reads the leases, not when it began waiting for the project lock', async () => {
      // Another process holds the project's lock (the advisory lock PgStateStore.update takes) for 600 ms.
      const holder = new pg.Client({ connectionString: url });
      holder.on('error', () => undefined);
      await holder.connect();
      try {
        await holder.query(`SELECT pg_advisory_lock(hashtextextended('switchyard:p', 0))`);
        await backend.leases.acquire('r1', 'a', 300);
        const viewed = backend.state.update((_s, leases) => {
          leases.take('r2', 'b', 400);
          return { lease: leases.get('r1')!, now: Date.now() };
        });
        await until(
          'the update to wait for the lock',
          async () =>
            (
              await sql(
                url,
                `SELECT 1 FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
              )
            ).length === 1,
        );
        await until(
          'r1 to expire on the server clock while the update waits',
          async () => (await expired('r1')) === true,
        );
        await holder.query(`SELECT pg_advisory_unlock(hashtextextended('switchyard:p', 0))`);
        const { lease, now } = await viewed;
        assert.ok(
          Date.parse(lease.expiresAt) < now,
          `r1 expired about 300 ms ago, read as ${lease.expiresAt} at ${new Date(now).toISOString()}`,
        );
        const [row] = await sql<{ remaining: number }>(
          url,
          `SELECT extract(epoch FROM expires_at - now()) * 1000 AS remaining FROM sy_run_leases WHERE run_id = 'r2'`,
        );
        assert.ok(
          Number(row!.remaining) > 200,
          `a lease taken after the wait lasts its 400 ms from then (${row!.remaining} ms left)`,
        );
      } finally {
        await holder.end();
      }
    });
  });
});

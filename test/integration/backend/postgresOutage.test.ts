import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import pg from 'pg';
import { isSwitchyardError } from '../../../src/core/errors';
import { PostgresBackend } from '../../../src/core/backend/postgres/postgresBackend';
import type { PgConnectionOptions } from '../../../src/core/backend/postgres/pgConnection';
import { startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { until } from '../../helpers/until';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL backend: change feed and outages', function () {
  this.timeout(60_000);
  let server: PostgresServer;
  let dbCount = 0;
  let url: string;
  const open: PostgresBackend[] = [];
  async function backend(project = 'p', options: PgConnectionOptions = {}): Promise<PostgresBackend> {
    const b = await PostgresBackend.open({ kind: 'postgres', url, project }, options);
    open.push(b);
    return b;
  }
  /** Whether `count` LISTEN connections of the feed are in place on the current database. */
  async function listening(count = 1): Promise<boolean> {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'switchyard-listen' AND query LIKE 'LISTEN%' AND state = 'idle'",
      );
      return rows.length === count;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const bump = (b: PostgresBackend) =>
    b.state.update((s) => {
      s.nextTaskNumber++;
    });

  before(async () => {
    server = await startPostgres({ fsync: false });
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    url = await server.createDatabase(`sy_outage_${++dbCount}`);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });

  describe('change feed', () => {
    it("fires for another process's update and hand-back on the same project, not for another project's", async () => {
      const [watcher, writer, elsewhere] = [await backend(), await backend(), await backend('q')];
      let calls = 0;
      const subscription = watcher.watch(() => calls++);
      await until('the feed to LISTEN', () => listening());
      assert.equal(calls, 0);

      await bump(writer);
      await until('a call for the update', () => calls === 1);
      // Notifications arrive in commit order: once the second one for p is in, one for q would have been too.
      await bump(elsewhere);
      await elsewhere.leases.acquire('r1', 'a', 60_000);
      await elsewhere.leases.handBack('r1', 'a');
      await writer.leases.acquire('r1', 'a', 60_000);
      await writer.leases.handBack('r1', 'a');
      await until('a call for the hand-back', () => calls >= 2);
      // A window for calls that must not come: with a correct feed the count stays 2 however long it is.
      await sleep(100);
      assert.equal(calls, 2, 'nothing for project q');

      subscription.dispose();
      await until('the feed to stop listening', () => listening(0));
      await bump(writer);
      // Again a window for a call that must not come.
      await sleep(200);
      assert.equal(calls, 2, 'a disposed listener is not called');
    });

    it('reconnects after a server restart, calls the listener once for what it missed, and fires for a later update', async () => {
      const [watcher, writer] = [await backend(), await backend()];
      let calls = 0;
      watcher.watch(() => calls++);
      await until('the feed to LISTEN', () => listening());
      await server.restart();
      await until('the reconnected feed to call the listener', () => calls === 1);
      assert.ok(await listening(), 'listening again');
      await bump(writer);
      await until('a call for an update after the restart', () => calls === 2);
      assert.equal((await watcher.state.read()).nextTaskNumber, 2);
    });
  });

  describe('outage', () => {
    it('an update issued while the server is down completes once it is back', async () => {
      const b = await backend('p', { reconnectBudgetMs: 30_000 });
      await bump(b);
      await server.stopServer();
      let settled = false;
      const started = Date.now();
      const pending = bump(b).finally(() => {
        settled = true;
      });
      try {
        // The outage: the server stays down this long whatever the update does.
        await sleep(1_500);
        assert.equal(settled, false, 'the update waits for the server');
      } finally {
        await server.startServer();
      }
      await pending;
      assert.ok(Date.now() - started >= 1_500);
      const state = await (await backend()).state.read();
      assert.deepEqual([state.nextTaskNumber, state.revision], [3, 2], 'applied exactly once');
    });

    it('with a short reconnect budget the update fails with backend-unreachable, and the backend works again later', async () => {
      const b = await backend('p', { reconnectBudgetMs: 500 });
      await bump(b);
      await server.stopServer();
      const started = Date.now();
      const error = await bump(b).then(
        () => undefined,
        (e: unknown) => e,
      );
      const elapsed = Date.now() - started;
      await server.startServer();
      assert.ok(isSwitchyardError(error, 'backend-unreachable'), inspect(error));
      assert.match(
        error.message,
        new RegExp(
          `^PostgreSQL at switchyard@127\\.0\\.0\\.1:${server.port}/sy_outage_\\d+ unreachable for \\d+ s: .*ECONNREFUSED`,
        ),
      );
      assert.ok(!error.message.includes(server.password));
      // Retries stop once the next backoff step would pass the budget: somewhat before 500 ms, never long after.
      assert.ok(elapsed >= 50 && elapsed < 2_000, `retried, then gave up within the budget (${elapsed} ms)`);
      await bump(b);
      assert.equal((await b.state.read()).nextTaskNumber, 3);
    });
  });
});

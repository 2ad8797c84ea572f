import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { isSwitchyardError } from '../../../src/core/errors';
import { PostgresBackend } from '../../../src/core/backend/postgres/postgresBackend';
import { MIGRATIONS } from '../../../src/core/backend/postgres/pgMigrations';
import { freePort } from '../../helpers/freePort';
import { sqlRows as sql, startPostgres, type PostgresServer } from '../../helpers/postgresServer';

/** Resolves to the error `promise` rejects with (fails when it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  assert.fail('expected a rejection');
}

describe('PostgreSQL backend: migrations and start errors', function () {
  this.timeout(60_000);
  let server: PostgresServer;
  let dbCount = 0;
  const open: PostgresBackend[] = [];
  const fresh = () => server.createDatabase(`sy_backend_${++dbCount}`);
  async function backend(url: string, project = 'p'): Promise<PostgresBackend> {
    const b = await PostgresBackend.open({ kind: 'postgres', url, project });
    open.push(b);
    return b;
  }

  before(async () => {
    server = await startPostgres({ fsync: false });
  });
  after(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });

  describe('migrations', () => {
    it('are applied on first open: sy_schema_migrations records every step and the tables exist', async () => {
      const url = await fresh();
      const b = await backend(url);
      assert.equal(
        b.description,
        `PostgreSQL switchyard@127.0.0.1:${server.port}/sy_backend_${dbCount}, project p`,
        'named without the password',
      );
      assert.deepEqual(
        await sql(url, 'SELECT version, name FROM sy_schema_migrations ORDER BY version'),
        MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
      );
      const tables = (
        await sql<{ table_name: string }>(
          url,
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
        )
      ).map((r) => r.table_name);
      assert.deepEqual(tables, [
        'sy_journal_events',
        'sy_projects',
        'sy_revisions',
        'sy_run_leases',
        'sy_runs',
        'sy_schema_migrations',
        'sy_tasks',
      ]);
      assert.deepEqual(await sql(url, 'SELECT project, revision::int FROM sy_projects'), [
        { project: 'p', revision: 0 },
      ]);
    });

    it('are idempotent: a second open applies nothing and keeps the data', async () => {
      const url = await fresh();
      const first = await backend(url);
      await first.state.update((s) => {
        s.nextTaskNumber = 7;
      });
      const before = await sql<{ applied_at: Date }>(
        url,
        'SELECT applied_at FROM sy_schema_migrations ORDER BY version',
      );
      const second = await backend(url);
      const after = await sql<{ applied_at: Date }>(
        url,
        'SELECT applied_at FROM sy_schema_migrations ORDER BY version',
      );
      assert.equal(after.length, MIGRATIONS.length);
      assert.deepEqual(
        after.map((r) => r.applied_at.getTime()),
        before.map((r) => r.applied_at.getTime()),
      );
      assert.equal((await second.state.read()).nextTaskNumber, 7);
    });

    it('two (and more) processes opening one fresh database at once all succeed and the step is recorded once', async () => {
      const url = await fresh();
      const opened = await Promise.all([backend(url, 'a'), backend(url, 'b'), backend(url, 'a'), backend(url, 'c')]);
      assert.equal(opened.length, 4);
      assert.deepEqual(
        await sql(url, 'SELECT version FROM sy_schema_migrations ORDER BY version'),
        MIGRATIONS.map((m) => ({ version: m.version })),
      );
      assert.deepEqual(
        (await sql<{ project: string }>(url, 'SELECT project FROM sy_projects ORDER BY project')).map((r) => r.project),
        ['a', 'b', 'c'],
      );
    });

    it('a database migrated by a newer Switchyard is refused with a message to update Switchyard', async () => {
      const url = await fresh();
      await backend(url);
      await Promise.all(open.splice(0).map((b) => b.close()));
      await sql(url, "INSERT INTO sy_schema_migrations (version, name) VALUES (99, 'from the future')");
      const error = await failure(backend(url));
      assert.ok(isSwitchyardError(error, 'backend-migrated'), `a backend-migrated error, got ${inspect(error)}`);
      const known = MIGRATIONS[MIGRATIONS.length - 1]!.version;
      assert.match(
        error.message,
        new RegExp(`schema is version 99, newer than this build knows \\(${known}\\); update Switchyard`),
      );
      assert.deepEqual(await sql(url, 'SELECT version FROM sy_schema_migrations ORDER BY version'), [
        ...MIGRATIONS.map((m) => ({ version: m.version })),
        { version: 99 },
      ]);
    });
  });

  describe('start errors', () => {
    const malformed: [string, RegExp][] = [
      ['not a url', /it is not a URL/],
      ['http://x/y', /its scheme is "http", not postgres/],
      ['postgres://127.0.0.1:5432/', /it names no database/],
      // The same, carrying a password that must not be echoed.
      ['Hunter2-zebra not a url', /it is not a URL/],
      ['http://me:Hunter2-zebra@x/y', /its scheme is "http"/],
      ['postgres://me:Hunter2-zebra@127.0.0.1:5432/', /it names no database/],
      // A stray "%" in a password is not a %-escape: a clear error, not "URI malformed".
      [
        'postgres://me:Hunter2-zebra%@127.0.0.1:5432/db',
        /its password has a "%" that is not a %-escape: write "%" as "%25"/,
      ],
    ];
    for (const [url, why] of malformed) {
      it(`a malformed URL (${JSON.stringify(url)}) is a backend-config error that does not echo it`, async () => {
        const error = await failure(PostgresBackend.open({ kind: 'postgres', url, project: 'p' }));
        assert.ok(isSwitchyardError(error, 'backend-config'), inspect(error));
        assert.match(error.message, why);
        assert.match(error.message, /expected postgres:\/\/user:password@host:5432\/database/);
        for (const text of [error.message, String(error.stack), inspect(error)]) {
          assert.ok(!text.includes(url), `the message does not contain the URL: ${text}`);
          assert.ok(!text.includes('Hunter2-zebra'), `the message does not contain the password: ${text}`);
        }
      });
    }

    it('an unreachable port is a backend-unreachable error naming host:port', async () => {
      const port = await freePort();
      const started = Date.now();
      const error = await failure(
        PostgresBackend.open({ kind: 'postgres', url: `postgres://u:pw@127.0.0.1:${port}/db`, project: 'p' }),
      );
      assert.ok(isSwitchyardError(error, 'backend-unreachable'), inspect(error));
      assert.match(
        error.message,
        new RegExp(`could not connect to PostgreSQL at u@127\\.0\\.0\\.1:${port}/db: .*ECONNREFUSED`),
      );
      assert.ok(Date.now() - started < 5_000, 'start does not retry a server that is not there');
    });

    it('a database that does not exist is a backend-config error naming it', async () => {
      const url = new URL(server.url);
      url.pathname = '/no_such_database';
      const error = await failure(PostgresBackend.open({ kind: 'postgres', url: url.toString(), project: 'p' }));
      assert.ok(isSwitchyardError(error, 'backend-config'), inspect(error));
      assert.match(error.message, /database "no_such_database" does not exist/);
    });

    it('a wrong password fails with "password authentication failed" and never shows the password', async () => {
      const password = 'Wr0ng-Pa55-okapi-7731';
      const url = new URL(server.url);
      url.password = password;
      const error = await failure(PostgresBackend.open({ kind: 'postgres', url: url.toString(), project: 'p' }));
      assert.ok(isSwitchyardError(error, 'backend-config'), inspect(error));
      assert.match(error.message, /password authentication failed for user "switchyard"/);
      assert.match(error.message, new RegExp(`switchyard@127\\.0\\.0\\.1:${server.port}/switchyard_test`));
      for (const text of [error.message, String(error.stack), inspect(error, { depth: 10 }), JSON.stringify(error)]) {
        assert.ok(!text.includes(password), `the password is absent: ${text}`);
        assert.ok(!text.includes(server.password), 'so is the real one');
      }
    });
  });
});

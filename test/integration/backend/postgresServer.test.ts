import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../../helpers/postgresServer';

/** PIDs of live processes whose command line mentions `needle` (a /proc scan; Linux only). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle)) pids.push(Number(entry));
    } catch {
      // process exited meanwhile
    }
  }
  return pids;
}

/** Running (not exited; an exited-but-unreaped zombie counts as dead: pg_ctl's postmaster is reparented
 * to PID 1, which in some containers never reaps). */
function isAlive(pid: number): boolean {
  try {
    return !/^State:\s*[ZX]/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a server restart terminates the connection; that must not crash mocha
  await client.connect();
  return client;
}

describe('test helper: throwaway PostgreSQL server', function () {
  this.timeout(60_000);
  let server: PostgresServer | undefined;
  const clients: pg.Client[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
    await server?.stop();
    server = undefined;
  });

  it('starts on 127.0.0.1 with password auth, restarts, and stop() leaves nothing behind', async () => {
    const t0 = Date.now();
    server = await startPostgres({ fsync: false });
    const startupMs = Date.now() - t0;
    console.log(`      startPostgres() took ${startupMs} ms (port ${server.port})`);

    const url = new URL(server.url);
    assert.equal(url.protocol, 'postgres:');
    assert.equal(url.hostname, '127.0.0.1');
    assert.equal(Number(url.port), server.port);
    assert.ok(url.password.length >= 16, 'the URL carries a password');
    assert.ok(existsSync(server.dataDir));

    const client = await connect(server.url);
    clients.push(client);
    assert.deepEqual((await client.query('select 1 as one')).rows, [{ one: 1 }]);
    const settings = await client.query(
      "select name, setting from pg_settings where name in ('listen_addresses', 'fsync', 'max_connections', 'unix_socket_directories')",
    );
    const byName = Object.fromEntries(settings.rows.map((r) => [r.name, r.setting]));
    assert.equal(byName.listen_addresses, '127.0.0.1');
    assert.equal(byName.fsync, 'off');
    assert.equal(byName.max_connections, '200');
    assert.ok(!String(byName.unix_socket_directories).includes('/var/run/postgresql'));
    assert.ok(String(byName.unix_socket_directories).startsWith(server.dataDir.replace(/\/data$/, '')));

    // The password is really checked.
    const wrong = new URL(server.url);
    wrong.password = 'not-the-password';
    await assert.rejects(connect(wrong.toString()), /password authentication failed/);

    // A second database.
    const otherUrl = await server.createDatabase('other_db');
    const other = await connect(otherUrl);
    clients.push(other);
    assert.equal((await other.query('select current_database() as db')).rows[0].db, 'other_db');

    // restart(): old connections die, new ones work, same port.
    const port = server.port;
    await server.restart();
    assert.equal(server.port, port);
    await assert.rejects(client.query('select 1'));
    const fresh = await connect(server.url);
    clients.push(fresh);
    assert.deepEqual((await fresh.query('select 1 as one')).rows, [{ one: 1 }]);

    // stopServer()/startServer(): a simulated outage.
    await fresh.end();
    await server.stopServer();
    await assert.rejects(connect(server.url));
    await server.startServer();
    const afterOutage = await connect(server.url);
    clients.push(afterOutage);
    assert.deepEqual((await afterOutage.query('select 1 as one')).rows, [{ one: 1 }]);

    // stop(): no postgres process for this data dir remains, and the dir is gone.
    const postmasterPid = Number(readFileSync(`${server.dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
    assert.ok(isAlive(postmasterPid));
    assert.ok(processesMentioning(server.dataDir).length > 0, 'the postmaster command line names the data dir');
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
    const { dataDir } = server;
    await server.stop();
    assert.equal(isAlive(postmasterPid), false);
    assert.deepEqual(processesMentioning(dataDir), []);
    assert.equal(existsSync(dataDir), false);
    await server.stop(); // idempotent
  });

  it('defaults to fsync on', async () => {
    server = await startPostgres();
    const client = await connect(server.url);
    clients.push(client);
    assert.equal((await client.query("select setting from pg_settings where name = 'fsync'")).rows[0].setting, 'on');
  });
});

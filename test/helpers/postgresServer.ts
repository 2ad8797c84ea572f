/**
 * A throwaway, real PostgreSQL server for tests.
 *
 * `startPostgres()` runs initdb into a private temp dir, starts the server on
 * 127.0.0.1 at a free port (unix socket in the same temp dir, never
 * /var/run/postgresql), with scram-sha-256 password auth, and creates a fresh
 * database. `stop()` stops the server and deletes everything.
 *
 * PostgreSQL refuses to run as root, so when the tests run as root the server
 * binaries are run as the `postgres` system user (via `runuser`).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import pg from 'pg';
import { freePort } from './freePort';

export interface StartPostgresOptions {
  /** fsync on (default) or off: off is faster but a crash can lose committed data. */
  fsync?: boolean;
}

export interface PostgresServer {
  /** `postgres://user:password@127.0.0.1:<port>/<db>` for a freshly created, empty database. */
  readonly url: string;
  readonly port: number;
  /** The cluster's data directory (inside the server's private temp dir). */
  readonly dataDir: string;
  /** Superuser name and password (the ones in `url`). */
  readonly user: string;
  readonly password: string;
  /** The server log file (pg_ctl -l). */
  readonly logFile: string;
  /** Creates a new empty database; resolves to its connection URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast`; resolves when the server accepts connections again (same port). */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, keeping the data dir: the start of a simulated outage. */
  stopServer(): Promise<void>;
  /** Starts the server again (same data dir and port); resolves when it accepts connections. */
  startServer(): Promise<void>;
  /** Stops the server (if running) and deletes its temp dir. Idempotent. */
  stop(): Promise<void>;
}

const SUPERUSER = 'switchyard';
const TEST_DB = 'switchyard_test';
const PG_CTL_TIMEOUT_S = 30;
const LOG_TAIL_LINES = 20;

// ---------------------------------------------------------------------------
// Binaries and the user to run them as

let binDirCache: string | undefined;

/** The bin dir of the newest installed PostgreSQL server (Debian layout), or `pg_config --bindir`. */
export async function findPostgresBinDir(): Promise<string> {
  if (binDirCache) return binDirCache;
  const hasServer = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b)));
  const candidates: string[] = [];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  try {
    const { stdout } = await execa('pg_config', ['--bindir'], { timeout: 10_000 });
    if (stdout.trim()) candidates.push(stdout.trim());
  } catch {
    // no pg_config on PATH
  }
  const found = candidates.find(hasServer);
  if (!found) {
    throw new Error(
      'PostgreSQL server binaries are missing (no initdb/pg_ctl/postgres under /usr/lib/postgresql/*/bin or `pg_config --bindir`). Install the Debian package `postgresql` (.ci/run installs it).',
    );
  }
  binDirCache = found;
  return found;
}

const runAsRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** argv to run `bin args…` as the server's OS user (`postgres` when we are root). */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return runAsRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    execa('id', ['-u', 'postgres']),
    execa('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

// ---------------------------------------------------------------------------
// Small utilities

/** The last `lines` lines of the server's log, for error messages. */
async function logTail(logFile: string, lines = LOG_TAIL_LINES): Promise<string> {
  try {
    const text = await readFile(logFile, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n') || '(log is empty)';
  } catch {
    return '(no log written)';
  }
}

function errText(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { shortMessage?: string; message?: string; stderr?: string };
    const head = e.shortMessage ?? e.message ?? String(err);
    return e.stderr && !head.includes(e.stderr) ? `${head}\n${e.stderr}` : head;
  }
  return String(err);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function urlFor(user: string, password: string, port: number, db: string): string {
  const credentials = `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
  return `postgres://${credentials}@127.0.0.1:${port}/${encodeURIComponent(db)}`;
}

/** Makes a private temp dir the server user can use (owned by `postgres`, 0700, when we are root). */
async function makeServerTempDir(): Promise<string> {
  const bases = [...new Set([tmpdir(), '/tmp'])];
  let lastError: unknown;
  for (const base of bases) {
    // Unix socket paths are limited to ~107 bytes: "<dir>/sock/.s.PGSQL.65535" must fit.
    if (base.length > 60) continue;
    let dir: string | undefined;
    try {
      dir = await mkdtemp(join(base, 'switchyard-pg-'));
      if (runAsRoot()) {
        const { uid, gid } = await postgresIds();
        await chown(dir, uid, gid);
        await chmod(dir, 0o700);
        // The postgres user must be able to reach the dir (every ancestor traversable).
        await execa('runuser', ['-u', 'postgres', '--', 'test', '-w', dir, '-a', '-x', dir]);
      }
      return dir;
    } catch (err) {
      lastError = err;
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }
  throw new Error(`could not make a temp dir usable by the PostgreSQL server user: ${errText(lastError)}`);
}

// ---------------------------------------------------------------------------
// Best-effort cleanup when the process exits with servers still running

interface LiveServer {
  pgCtl: string;
  dataDir: string;
  root: string;
}
const live = new Set<LiveServer>();
let exitHandlerInstalled = false;

function onExit(): void {
  for (const s of live) {
    try {
      if (existsSync(join(s.dataDir, 'postmaster.pid'))) {
        const [cmd, args] = asServerUser(s.pgCtl, ['stop', '-D', s.dataDir, '-m', 'immediate', '-w', '-t', '10']);
        spawnSync(cmd, args, { stdio: 'ignore', cwd: s.root, timeout: 15_000 });
      }
    } catch {
      // best effort
    }
    try {
      rmSync(s.root, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
  live.clear();
}

function track(s: LiveServer): void {
  if (!exitHandlerInstalled) {
    process.on('exit', onExit);
    exitHandlerInstalled = true;
  }
  live.add(s);
}

// ---------------------------------------------------------------------------

/** Starts a throwaway PostgreSQL server with a fresh database; see the module comment. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const binDir = await findPostgresBinDir();
  const pgCtl = join(binDir, 'pg_ctl');
  const initdb = join(binDir, 'initdb');

  const root = await makeServerTempDir();
  const dataDir = join(root, 'data');
  const sockDir = join(root, 'sock');
  const logFile = join(root, 'postgres.log');
  const pwFile = join(root, 'pwfile');
  const password = randomBytes(18).toString('hex');
  const liveEntry: LiveServer = { pgCtl, dataDir, root };
  track(liveEntry);

  /** Runs a server binary as the server user, in the temp dir (the postgres user may not see our cwd). */
  const run = (bin: string, args: string[], timeoutMs = (PG_CTL_TIMEOUT_S + 15) * 1000) => {
    const [cmd, argv] = asServerUser(bin, args);
    return execa(cmd, argv, { cwd: root, timeout: timeoutMs, stdin: 'ignore' });
  };
  const pgCtlStart = () => run(pgCtl, ['start', '-D', dataDir, '-l', logFile, '-w', '-t', String(PG_CTL_TIMEOUT_S)]);
  const pgCtlStop = (mode: 'fast' | 'immediate') =>
    run(pgCtl, ['stop', '-D', dataDir, '-m', mode, '-w', '-t', String(PG_CTL_TIMEOUT_S)]);

  let port = 0;
  const fail = async (what: string, err: unknown): Promise<never> =>
    Promise.reject(
      new Error(
        `PostgreSQL test server: ${what} failed: ${errText(err)}\n` +
          `server log ${logFile} (last ${LOG_TAIL_LINES} lines):\n${await logTail(logFile)}`,
      ),
    );

  /** Polls until a real (password-authenticated) connection succeeds. */
  const waitForConnections = async (timeoutMs = PG_CTL_TIMEOUT_S * 1000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const client = new pg.Client({
        connectionString: urlFor(SUPERUSER, password, port, 'postgres'),
        connectionTimeoutMillis: 2000,
      });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('select 1');
        await client.end();
        return;
      } catch (err) {
        await client.end().catch(() => {});
        if (Date.now() > deadline) await fail('waiting for the server to accept connections', err);
        await sleep(50);
      }
    }
  };

  const startServerNow = async () => {
    try {
      await pgCtlStart();
    } catch (err) {
      await fail(`pg_ctl start (port ${port})`, err);
    }
    await waitForConnections();
  };

  const createDatabase = async (name: string): Promise<string> => {
    const client = new pg.Client({ connectionString: urlFor(SUPERUSER, password, port, 'postgres') });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query(`create database ${client.escapeIdentifier(name)}`);
    } finally {
      await client.end().catch(() => {});
    }
    return urlFor(SUPERUSER, password, port, name);
  };

  let url: string;
  try {
    // The server does not create its unix socket dir; the password file is for initdb only.
    await mkdir(sockDir, { mode: 0o700 });
    await writeFile(pwFile, `${password}\n`, { mode: 0o600 });
    if (runAsRoot()) {
      const { uid, gid } = await postgresIds();
      await chown(sockDir, uid, gid);
      await chown(pwFile, uid, gid);
    }
    // initdb: scram-sha-256 for every connection, a superuser with a generated password.
    try {
      await run(
        initdb,
        [
          '-D',
          dataDir,
          `--username=${SUPERUSER}`,
          `--pwfile=${pwFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
          '--no-sync',
        ],
        120_000,
      );
    } catch (err) {
      await fail('initdb', err);
    } finally {
      await rm(pwFile, { force: true });
    }

    // Start; if the port was taken between freePort() and bind(), retry on a new one.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const conf = [
        '',
        '# switchyard test server',
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${sockDir}'`,
        `fsync = ${options.fsync === false ? 'off' : 'on'}`,
        'max_connections = 200',
        'shared_buffers = 32MB',
        "password_encryption = 'scram-sha-256'",
        'logging_collector = off',
        '',
      ].join('\n');
      // postgresql.auto.conf is read last, so these win over postgresql.conf; rewritten on each attempt.
      await writeFile(join(dataDir, 'postgresql.auto.conf'), conf);
      if (runAsRoot()) {
        const { uid, gid } = await postgresIds();
        await chown(join(dataDir, 'postgresql.auto.conf'), uid, gid);
      }
      try {
        await pgCtlStart();
        break;
      } catch (err) {
        const tail = await logTail(logFile, 50);
        if (attempt < 3 && /could not (bind|create listen socket)|Address already in use/i.test(tail)) continue;
        await fail(`pg_ctl start (port ${port})`, err);
      }
    }
    await waitForConnections();
    url = await createDatabase(TEST_DB);
  } catch (err) {
    // Never leave a running server or a temp dir behind.
    if (existsSync(join(dataDir, 'postmaster.pid'))) await pgCtlStop('immediate').catch(() => {});
    await rm(root, { recursive: true, force: true }).catch(() => {});
    live.delete(liveEntry);
    throw err;
  }

  let stopped: Promise<void> | undefined;
  const server: PostgresServer = {
    url,
    port,
    dataDir,
    user: SUPERUSER,
    password,
    logFile,
    createDatabase,
    async restart() {
      try {
        await run(pgCtl, ['restart', '-D', dataDir, '-l', logFile, '-m', 'fast', '-w', '-t', String(PG_CTL_TIMEOUT_S)]);
      } catch (err) {
        await fail('pg_ctl restart', err);
      }
      await waitForConnections();
    },
    async stopServer() {
      try {
        await pgCtlStop('fast');
      } catch (err) {
        await fail('pg_ctl stop', err);
      }
    },
    startServer: startServerNow,
    stop() {
      stopped ??= (async () => {
        try {
          if (existsSync(join(dataDir, 'postmaster.pid'))) {
            await pgCtlStop('fast')
              .catch(() => pgCtlStop('immediate'))
              .catch(() => {});
          }
        } finally {
          await rm(root, { recursive: true, force: true });
          live.delete(liveEntry);
        }
      })();
      return stopped;
    },
  };
  return server;
}

/** One statement on a connection of its own, as an operator would run it; its rows. */
export async function sqlRows<R extends pg.QueryResultRow>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

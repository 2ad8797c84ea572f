import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { buildCliBundle } from '../../helpers/cliBundle';
import { freePort } from '../../helpers/freePort';
import { sqlRows, startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { until as waitUntil } from '../../helpers/until';
import { makeTempRepo } from '../../helpers/tempRepo';
import { setTrust } from '../../../src/cli/trustedWorkspaces';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import type { ProjectSettings } from '../../../src/core/store/projectState';

/**
 * The team backend with real processes: `switchyard worker` processes (the
 * bundled CLI) share one queue and one journal store in a real PostgreSQL
 * server on loopback, started for this file and removed after it.
 */
const INSTANT = resolve('test/fixtures/lanes/instantLane.mjs');
const CRASH = resolve('test/fixtures/lanes/crashLane.mjs');

describe('team backend: workers on PostgreSQL (real processes, real server)', function () {
  this.timeout(300_000);
  let server: PostgresServer;
  let cli: string;
  const cleanups: (() => Promise<unknown>)[] = [];
  before(async () => {
    [server, cli] = await Promise.all([startPostgres(), buildCliBundle()]);
  });
  after(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await server?.stop();
    if (cli) await rm(join(cli, '..'), { recursive: true, force: true });
  });

  let dbCount = 0;
  /** A repository whose project lives in a fresh database, with `lane` as the default lane and its settings. */
  async function team(
    lane: { module: string; id: string; settings: Record<string, unknown> },
    settings: Partial<ProjectSettings> = {},
  ) {
    const repo = await makeTempRepo();
    const side = `${repo.dir}-side`;
    const config = { XDG_CONFIG_HOME: join(side, 'config') };
    await setTrust(repo.dir, true, config);
    const url = await server.createDatabase(`team_${++dbCount}`);
    const env = { ...config, SWITCHYARD_DATABASE_URL: url, SWITCHYARD_BACKEND: 'postgres', SWITCHYARD_PROJECT: 'team' };
    const backend = { kind: 'postgres' as const, url, project: 'team' };
    const project = await Project.open(repo.dir, { registry: new LaneRegistry(), backend });
    await project.settings.update((s) => {
      Object.assign(s, {
        laneModules: [lane.module],
        defaultLane: lane.id,
        laneSettings: { [lane.id]: lane.settings },
        ...settings,
      });
      s.integration.enabled = false;
    });
    const workers: ResultPromise[] = [];
    const worker = (args: string[] = [], extraEnv: Record<string, string> = {}) => {
      const child = execa('node', [cli, 'worker', '--repo', repo.dir, ...args], {
        env: { ...env, ...extraEnv },
        extendEnv: true,
        reject: false,
        all: true,
      });
      workers.push(child);
      return child;
    };
    const sy = (args: string[], extraEnv: Record<string, string> = {}) =>
      execa('node', [cli, ...args, '--repo', repo.dir], {
        env: { ...env, ...extraEnv },
        extendEnv: true,
        reject: false,
      });
    const cleanup = async () => {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.allSettled(workers);
      await project.close();
      await repo.cleanup();
      await rm(side, { recursive: true, force: true });
    };
    cleanups.push(cleanup);
    return { repo, side, url, env, project, worker, sy, cleanup };
  }

  /** Waits until `check` holds, polling every 100 ms; fails with `what` after `ms`. */
  const until = (what: string, check: () => Promise<boolean>, ms = 60_000) => waitUntil(what, check, ms, 100);

  function ledger(file: string): Map<string, number> {
    const counts = new Map<string, number>();
    if (!existsSync(file)) return counts;
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const task = line.split(' ')[0]!;
      counts.set(task, (counts.get(task) ?? 0) + 1);
    }
    return counts;
  }

  it('4 workers, 500 tasks on an instant lane: every task executed exactly once, every journal complete', async () => {
    const TASKS = Number(process.env.TEAM_TASKS ?? 500);
    const t = await team({ module: INSTANT, id: 'instant', settings: {} });
    const ledgerFile = join(t.side, 'ledger');
    await t.project.settings.update((s) => {
      s.laneSettings = { instant: { ledger: ledgerFile } };
      s.wip = { ...s.wip, RUNNING: 16, VERIFYING: 16 };
    });
    await t.project.tasks.addMany(Array.from({ length: TASKS }, (_, i) => ({ title: `task ${i + 1}` })));
    const started = Date.now();
    const workers = [1, 2, 3, 4].map(() => t.worker(['--concurrency', '4']));
    await until(
      'every task DONE or FAILED',
      async () => (await t.project.state()).tasks.every((x) => x.state === 'DONE' || x.state === 'FAILED'),
      240_000,
    );
    const wallMs = Date.now() - started;
    for (const w of workers) w.kill('SIGTERM');
    const results = await Promise.all(workers);
    for (const r of results) {
      assert.equal(r.exitCode, 0, r.all);
      assert.match(r.all ?? '', /worker stopped: \d+ run\(s\) finished, 0 resumed, 0 handed back/);
    }
    if (process.env.TEAM_DEBUG) for (const r of results) console.log(r.all?.split('\n').slice(0, 12).join('\n'));

    const state = await t.project.state();
    assert.equal(state.tasks.length, TASKS);
    assert.deepEqual(
      state.tasks.filter((x) => x.state !== 'DONE').map((x) => `${x.id} ${x.state} ${x.failureReason ?? ''}`),
      [],
    );
    assert.equal(state.runs.length, TASKS, 'one run per task: no task was claimed twice');
    assert.equal(new Set(state.runs.map((r) => r.taskId)).size, TASKS);
    const counts = ledger(ledgerFile);
    assert.equal(counts.size, TASKS, "every task's side effect happened");
    assert.deepEqual(
      [...counts].filter(([, n]) => n !== 1),
      [],
      'and happened exactly once',
    );
    const owners = new Map<string, number>();
    for (const run of state.runs) {
      const journal = await t.project.runs.journal(run.id);
      assert.deepEqual(
        journal.events.map((e) => e.type),
        ['run-started', 'intent', 'outcome', 'intent', 'outcome'],
        `journal of ${run.id}`,
      );
      const owner = run.owner!.split('/').slice(0, 2).join('/');
      owners.set(owner, (owners.get(owner) ?? 0) + 1);
    }
    console.log(
      `      ${TASKS} tasks by 4 workers in ${(wallMs / 1000).toFixed(1)} s; runs per worker: ${[...owners.values()].join(', ')}`,
    );
    assert.ok(owners.size >= 2, `the work was shared (${[...owners.values()].join(', ')})`);
  });

  it('a worker SIGKILLed mid-run: its lease expires, another worker resumes the run from the shared journal', async () => {
    const t = await team({ module: CRASH, id: 'crash', settings: {} }, { leaseMs: 1500 });
    const counts = join(t.side, 'counts');
    await t.project.settings.update((s) => {
      s.laneSettings = { crash: { countsDir: counts } };
    });
    await t.project.tasks.add({ title: 'crash test' });
    const count = (name: string) =>
      existsSync(join(counts, name)) ? readFileSync(join(counts, name), 'utf8').trim().split('\n').length : 0;
    // Call 9 is step 3's `never` tool: killed after its side effect, before its outcome is recorded.
    const a = await t.worker(['--name', 'box-a'], { CRASH_AT: '9:inside' });
    assert.equal(a.signal, 'SIGKILL', a.all);
    const lease = await leaseRow(t.url);
    assert.match(lease.owner, /^box-a\//);
    // Another "machine": its name differs, so only the lease's expiry tells it box-a is gone.
    const b = t.worker(['--name', 'box-b', '--poll-ms', '200']);
    await until('the run to finish on box-b', async () => (await t.project.state()).tasks[0]!.state === 'DONE', 30_000);
    b.kill('SIGTERM');
    const rb = await b;
    assert.equal(rb.exitCode, 0, rb.all);
    assert.match(rb.all ?? '', /resumed from their journals: t1\.1/);

    const state = await t.project.state();
    assert.equal(state.runs.length, 1, 'resumed in place, no new attempt');
    const run = state.runs[0]!;
    assert.equal(run.resumes, 1);
    assert.match(run.owner!, /^box-b\//);
    const journal = await t.project.runs.journal('t1.1');
    const resumed = journal.events.find((e) => e.type === 'resumed');
    assert.ok(
      resumed && resumed.type === 'resumed' && resumed.previousOwner?.startsWith('box-a/'),
      'the journal names the previous owner',
    );
    assert.ok(
      Date.parse(resumed.ts) >= Date.parse(lease.expiresAt) - 50,
      `taken over only after the lease expired (${resumed.ts} vs ${lease.expiresAt})`,
    );
    for (let i = 1; i <= 6; i++) {
      assert.equal(count(`model-${i}`), 1, `model-${i}: a completed call is not repeated`);
      assert.equal(count(`safe-${i}`), 1, `safe-${i}`);
      assert.equal(count(`never-${i}`), 1, `never-${i} executed exactly once`);
    }
    assert.equal(run.resumeCounts?.uncertain, 1, 'the interrupted never-call is reported uncertain');
    assert.equal(readFileSync(join(counts, 'uncertain-3'), 'utf8').trim(), 'happened');
    assert.ok(Math.abs(run.usage!.costUsd - 0.06) < 1e-9, `cost counted once per model call (${run.usage!.costUsd})`);
  });

  it('PostgreSQL restarted, then down for 2 s, during runs: workers reconnect with backoff and nothing is lost', async () => {
    const TASKS = 40;
    const t = await team({ module: INSTANT, id: 'instant', settings: {} });
    const ledgerFile = join(t.side, 'ledger');
    await t.project.settings.update((s) => {
      s.laneSettings = { instant: { ledger: ledgerFile, delayMs: 150 } };
      s.wip = { ...s.wip, RUNNING: 8, VERIFYING: 8 };
    });
    await t.project.tasks.addMany(Array.from({ length: TASKS }, (_, i) => ({ title: `task ${i + 1}` })));
    const workers = [1, 2].map(() => t.worker(['--concurrency', '4']));
    const done = async () => (await t.project.state()).tasks.filter((x) => x.state === 'DONE').length;
    await until('8 tasks DONE', async () => (await done()) >= 8);
    await server.restart();
    const afterRestart = await done();
    await until('8 more tasks DONE after the restart', async () => (await done()) >= afterRestart + 8);
    await server.stopServer();
    // The outage: the server stays down 2 s, whatever the workers do meanwhile.
    await new Promise((r) => setTimeout(r, 2_000));
    await server.startServer();
    await until(
      'every task DONE or FAILED',
      async () => (await t.project.state()).tasks.every((x) => x.state === 'DONE' || x.state === 'FAILED'),
      120_000,
    );
    for (const w of workers) w.kill('SIGTERM');
    for (const r of await Promise.all(workers)) assert.equal(r.exitCode, 0, r.all);

    const state = await t.project.state();
    assert.deepEqual(
      state.tasks.filter((x) => x.state !== 'DONE').map((x) => `${x.id} ${x.state} ${x.failureReason ?? ''}`),
      [],
    );
    assert.equal(state.runs.length, TASKS, 'one run per task');
    const counts = ledger(ledgerFile);
    assert.equal(counts.size, TASKS);
    assert.deepEqual(
      [...counts].filter(([, n]) => n !== 1),
      [],
      'every side effect exactly once',
    );
    for (const run of state.runs) {
      const journal = await t.project.runs.journal(run.id);
      assert.deepEqual(
        journal.events.map((e) => e.type),
        ['run-started', 'intent', 'outcome', 'intent', 'outcome'],
        `journal of ${run.id}`,
      );
    }
  });

  it('SIGTERM: a worker finishes its run within the grace period; after it, hands the run back and another worker resumes it', async () => {
    const t = await team({ module: INSTANT, id: 'instant', settings: {} });
    const ledgerFile = join(t.side, 'ledger');
    await t.project.settings.update((s) => {
      s.laneSettings = { instant: { ledger: ledgerFile, delayMs: 1500 } };
    });
    const inFlight = async (runId: string) =>
      (await t.project.runs.journal(runId)).events.some((e) => e.type === 'intent');

    await t.project.tasks.add({ title: 'finishes in the grace period' });
    const a = t.worker(['--grace', '20']);
    await until('t1.1 in flight', () => inFlight('t1.1'));
    a.kill('SIGTERM');
    const ra = await a;
    assert.equal(ra.exitCode, 0, ra.all);
    assert.match(ra.all ?? '', /worker stopped: 1 run\(s\) finished, 0 resumed, 0 handed back/);
    assert.equal((await t.project.state()).tasks[0]!.state, 'DONE');

    await t.project.tasks.add({ title: 'handed back' });
    const a2 = t.worker(['--grace', '0.2']);
    await until('t2.1 in flight', () => inFlight('t2.1'));
    a2.kill('SIGTERM');
    const ra2 = await a2;
    assert.equal(ra2.exitCode, 0, ra2.all);
    assert.match(ra2.all ?? '', /↩ t2\.1 handed back/);
    assert.match(ra2.all ?? '', /0 run\(s\) finished, 0 resumed, 1 handed back/);
    const handed = (await t.project.state()).runs.find((r) => r.id === 't2.1')!;
    assert.equal(handed.state, 'RUNNING', 'the end of a handed-back run is not recorded');
    const lease = await leaseRow(t.url, 't2.1');
    assert.ok(Date.parse(lease.expiresAt) <= Date.now(), 'its lease is expired at once');

    const b = t.worker();
    await until('t2 DONE on the other worker', async () => (await t.project.state()).tasks[1]!.state === 'DONE');
    b.kill('SIGTERM');
    assert.equal((await b).exitCode, 0);
    const state = await t.project.state();
    assert.equal(state.runs.filter((r) => r.taskId === 't2').length, 1, 'resumed in place, no new attempt');
    const run = state.runs.find((r) => r.id === 't2.1')!;
    assert.equal(run.resumes, 1);
    assert.equal(run.resumeCounts?.resent, 1, 'the model call in flight at hand-back is sent again');
    assert.equal(run.resumeCounts?.uncertain, 0);
    assert.equal(ledger(ledgerFile).get('t2'), 1);
    const journal = await t.project.runs.journal('t2.1');
    assert.deepEqual(
      journal.events.map((e) => e.type),
      ['run-started', 'intent', 'resumed', 'outcome', 'intent', 'outcome'],
      'no failed outcome was recorded for the call cut by the hand-back',
    );
  });

  it('backend migrate: a files project (state and journals) moves to PostgreSQL one way; workers go on from there', async () => {
    const repo = await makeTempRepo();
    const side = `${repo.dir}-side`;
    const config = { XDG_CONFIG_HOME: join(side, 'config') };
    cleanups.push(async () => {
      await repo.cleanup();
      await rm(side, { recursive: true, force: true });
    });
    await setTrust(repo.dir, true, config);
    const ledgerFile = join(side, 'ledger');
    const files = await Project.open(repo.dir, { registry: new LaneRegistry() });
    await files.settings.update((s) => {
      Object.assign(s, {
        laneModules: [INSTANT],
        defaultLane: 'instant',
        laneSettings: { instant: { ledger: ledgerFile } },
      });
      s.integration.enabled = false;
    });
    await files.tasks.addMany([{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    const sy = (args: string[], env: Record<string, string>) =>
      execa('node', [cli, ...args, '--repo', repo.dir], {
        env: { ...config, ...env },
        extendEnv: true,
        reject: false,
      });
    const ran = await sy(['run'], {});
    assert.equal(ran.exitCode, 0, ran.stderr);
    await files.tasks.addMany([{ title: 'd' }, { title: 'e' }]);
    const before = await files.state();

    const url = await server.createDatabase(`team_${++dbCount}`);
    const pgEnv = { SWITCHYARD_BACKEND: 'postgres', SWITCHYARD_DATABASE_URL: url, SWITCHYARD_PROJECT: 'moved' };
    const migrated = await sy(['backend', 'migrate'], pgEnv);
    assert.equal(migrated.exitCode, 0, migrated.stderr);
    assert.match(migrated.stdout, /migrated 5 task\(s\), 3 run\(s\) and 15 journal event\(s\) of 3 run\(s\)/);

    const onFiles = await sy(['status'], {});
    assert.equal(onFiles.exitCode, 1);
    assert.match(onFiles.stderr, /moved to PostgreSQL .* project moved/);
    const again = await sy(['backend', 'migrate'], pgEnv);
    assert.equal(again.exitCode, 1);
    assert.match(again.stderr, /already migrated/);

    const pg = await Project.open(repo.dir, {
      registry: new LaneRegistry(),
      backend: { kind: 'postgres', url, project: 'moved' },
    });
    cleanups.push(() => pg.close());
    const after = await pg.state();
    assert.deepEqual(after.tasks, before.tasks);
    assert.deepEqual(after.runs, before.runs);
    assert.deepEqual(after.settings, before.settings);
    for (const run of before.runs) {
      assert.deepEqual(
        (await pg.runs.journal(run.id)).events,
        (await files.runs.journal(run.id)).events,
        `journal of ${run.id}`,
      );
    }

    const worker = await execa('node', [cli, 'worker', '--once', '--repo', repo.dir], {
      env: { ...config, ...pgEnv },
      extendEnv: true,
      reject: false,
      all: true,
    });
    assert.equal(worker.exitCode, 0, worker.all);
    const final = await pg.state();
    assert.deepEqual(
      final.tasks.map((x) => `${x.id} ${x.state}`),
      ['t1 DONE', 't2 DONE', 't3 DONE', 't4 DONE', 't5 DONE'],
    );
    assert.deepEqual([...ledger(ledgerFile).values()], [1, 1, 1, 1, 1]);

    // Into a project that is not empty: refused, nothing changed.
    const other = await makeTempRepo();
    cleanups.push(() => other.cleanup());
    const p2 = await Project.open(other.dir, { registry: new LaneRegistry() });
    await p2.tasks.add({ title: 'x' });
    const refused = await execa('node', [cli, 'backend', 'migrate', '--repo', other.dir], {
      env: { ...config, ...pgEnv },
      extendEnv: true,
      reject: false,
    });
    assert.equal(refused.exitCode, 1);
    assert.match(
      refused.stderr,
      /already has 5 task\(s\) and 5 run\(s\): the migration copies only into an empty project/,
    );
    assert.equal((await pg.state()).tasks.length, 5);
  });

  it('the CLI names what is wrong with the backend and never falls back to files', async () => {
    const repo = await makeTempRepo();
    cleanups.push(() => repo.cleanup());
    const sy = (env: Record<string, string>) =>
      execa('node', [cli, 'status', '--repo', repo.dir], { env, extendEnv: true, reject: false });
    const noUrl = await sy({ SWITCHYARD_BACKEND: 'postgres', SWITCHYARD_DATABASE_URL: '' });
    assert.equal(noUrl.exitCode, 1);
    assert.match(noUrl.stderr, /no connection string is set: set the environment variable SWITCHYARD_DATABASE_URL/);
    const unknown = await sy({ SWITCHYARD_BACKEND: 'mysql' });
    assert.match(unknown.stderr, /unknown backend "mysql": use "files" or "postgres"/);
    const secret = 'Sekr3t-never-shown';
    const closed = await freePort();
    const unreachable = await sy({
      SWITCHYARD_BACKEND: 'postgres',
      SWITCHYARD_DATABASE_URL: `postgres://someone:${secret}@127.0.0.1:${closed}/db`,
    });
    assert.equal(unreachable.exitCode, 1);
    assert.match(
      unreachable.stderr,
      new RegExp(`could not connect to PostgreSQL at someone@127\\.0\\.0\\.1:${closed}/db: .*ECONNREFUSED`),
    );
    const badPassword = await sy({
      SWITCHYARD_BACKEND: 'postgres',
      SWITCHYARD_DATABASE_URL: server.url.replace(/:[^:@/]+@/, `:${secret}@`),
    });
    assert.match(badPassword.stderr, /password authentication failed/);
    const malformed = await sy({ SWITCHYARD_BACKEND: 'postgres', SWITCHYARD_DATABASE_URL: `mysql://u:${secret}@h/db` });
    assert.match(
      malformed.stderr,
      /the PostgreSQL connection string is not valid \(its scheme is "mysql", not postgres\)/,
    );
    for (const r of [noUrl, unreachable, badPassword, malformed])
      assert.ok(!`${r.stdout}${r.stderr}`.includes(secret), 'the password never shows');
    assert.ok(!existsSync(join(repo.dir, '.switchyard', 'state.json')), 'no files backend was created as a fallback');
  });
});

async function leaseRow(url: string, runId = 't1.1'): Promise<{ owner: string; expiresAt: string }> {
  const [row] = await sqlRows<{ owner: string; expires_at: Date }>(
    url,
    'SELECT owner, expires_at FROM sy_run_leases WHERE run_id = $1',
    [runId],
  );
  assert.ok(row, `a lease row for ${runId}`);
  return { owner: row.owner, expiresAt: new Date(row.expires_at).toISOString() };
}

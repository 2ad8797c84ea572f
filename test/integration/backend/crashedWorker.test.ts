import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { buildCliBundle } from '../../helpers/cliBundle';
import { sqlRows, startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { until } from '../../helpers/until';
import { makeTempRepo } from '../../helpers/tempRepo';
import { setTrust } from '../../../src/cli/trustedWorkspaces';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';

/**
 * A crash is a host fault, not a lane fault: real `switchyard worker`
 * processes on a real PostgreSQL server; one of them, with 4 runs in flight
 * on a lane that cannot resume (test/fixtures/lanes/sleepLane.mjs), is
 * SIGKILLed. Its runs are failed as `interrupted` once their leases expire,
 * and the other workers start them again at once: the lane's breaker stays
 * closed and no attempt is spent. And a run whose journal rows are lost
 * after such a kill is failed, never restarted from scratch.
 */
const SLEEP = resolve('test/fixtures/lanes/sleepLane.mjs');
const CRASH = resolve('test/fixtures/lanes/crashLane.mjs');
const LEASE_MS = 3_000;

describe('a SIGKILLed worker on PostgreSQL (real workers, real server)', function () {
  this.timeout(180_000);
  let server: PostgresServer;
  let cli: string;
  const workers: ResultPromise[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  before(async () => {
    [server, cli] = await Promise.all([startPostgres(), buildCliBundle()]);
  });
  after(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await Promise.allSettled(workers);
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await server?.stop();
    if (cli) await rm(join(cli, '..'), { recursive: true, force: true });
  });

  it('after a worker with 4 runs in flight is SIGKILLed, the others start them again within leaseMs + 5 s; breaker closed, no attempt spent', async () => {
    const repo = await makeTempRepo();
    const side = `${repo.dir}-side`;
    const config = { XDG_CONFIG_HOME: join(side, 'config') };
    const ledger = join(side, 'ledger');
    await setTrust(repo.dir, true, config);
    const url = await server.createDatabase('crashed_worker');
    const env = {
      ...config,
      SWITCHYARD_DATABASE_URL: url,
      SWITCHYARD_BACKEND: 'postgres',
      SWITCHYARD_PROJECT: 'team',
    };
    const project = await Project.open(repo.dir, {
      registry: new LaneRegistry(),
      backend: { kind: 'postgres', url, project: 'team' },
    });
    cleanups.push(async () => {
      await project.close();
      await repo.cleanup();
      await rm(side, { recursive: true, force: true });
    });
    await project.settings.update((s) => {
      Object.assign(s, {
        laneModules: [SLEEP],
        defaultLane: 'sleep',
        leaseMs: LEASE_MS,
        laneSettings: { sleep: { ledger, delayMs: 8_000 } },
      });
      s.integration.enabled = false;
      s.wip = { ...s.wip, RUNNING: 16, VERIFYING: 16 };
      s.retryBackoff = { ...s.retryBackoff, initialMs: 0 };
    });
    await project.tasks.addMany(Array.from({ length: 8 }, (_, i) => ({ title: `task ${i + 1}` })));
    const worker = (name: string, concurrency: number) => {
      const child = execa(
        'node',
        [cli, 'worker', '--repo', repo.dir, '--name', name, '--concurrency', String(concurrency), '--poll-ms', '200'],
        { env, extendEnv: true, reject: false, all: true },
      );
      workers.push(child);
      return child;
    };

    const a = worker('box-a', 4);
    const ownedByA = async () =>
      (await project.state()).runs.filter((r) => r.state === 'RUNNING' && r.owner?.startsWith('box-a/'));
    await until('box-a has 4 runs in flight', async () => (await ownedByA()).length === 4, 60_000, 100);
    const lost = (await ownedByA()).map((r) => r.taskId);
    const b = worker('box-b', 4);
    const c = worker('box-c', 4);
    await until(
      'box-b and box-c started the other 4 tasks',
      async () => (await project.state()).runs.filter((r) => !r.owner?.startsWith('box-a/')).length >= 4,
      60_000,
      100,
    );
    a.kill('SIGKILL');
    const killedAt = Date.now();
    assert.equal((await a).signal, 'SIGKILL');

    await until(
      'every task DONE',
      async () => (await project.state()).tasks.every((t) => t.state === 'DONE'),
      90_000,
      200,
    );
    for (const w of [b, c]) w.kill('SIGTERM');
    for (const r of await Promise.all([b, c])) assert.equal(r.exitCode, 0, r.all);

    const state = await project.state();
    const delays: number[] = [];
    for (const taskId of lost) {
      const runs = state.runs.filter((r) => r.taskId === taskId);
      assert.equal(
        runs.length,
        2,
        `${taskId}: the interrupted run and one more: ${runs.map((r) => `${r.id} ${r.state} ${r.failureCode ?? ''}`).join(', ')}`,
      );
      const [first, next] = runs as [(typeof runs)[0], (typeof runs)[0]];
      assert.equal(first.failureCode, 'interrupted');
      assert.equal(next.state, 'SUCCEEDED');
      assert.ok(!next.owner?.startsWith('box-a/'));
      assert.equal(next.attempt, 1, `${taskId}: the interrupted attempt was not spent`);
      assert.match(
        next.retryReason ?? '',
        new RegExp(`^follows an interruption of ${first.id.replace('.', '\\.')} \\(not counted as an attempt\\)`),
      );
      delays.push(Date.parse(next.startedAt) - killedAt);
    }
    const worst = Math.max(...delays);
    console.log(
      `      the 4 interrupted tasks started again ${delays.map((d) => (d / 1000).toFixed(1)).join(', ')} s after the SIGKILL (leaseMs ${LEASE_MS / 1000} s)`,
    );
    assert.ok(worst <= LEASE_MS + 5_000, `started again within leaseMs + 5 s (worst ${worst} ms)`);
    for (const task of state.tasks) assert.equal(task.attempts, 1, `${task.id}: one attempt counted`);
    const breaker = state.breakers.sleep;
    assert.ok(
      !breaker || (breaker.state === 'closed' && breaker.opened === 0 && breaker.recent.length === 0),
      `the lane's breaker never opened: ${JSON.stringify(breaker)}`,
    );
    // The side-effect ledger: each lost task started twice (its interrupted run and the next), the others once.
    const starts = readFileSync(ledger, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]!);
    for (const task of state.tasks)
      assert.equal(starts.filter((t) => t === task.id).length, lost.includes(task.id) ? 2 : 1, task.id);
  });

  it('a worker SIGKILLed mid-run whose journal rows are then lost: the run fails as journal-missing naming them, no never-call runs again, resume exits 1', async () => {
    const repo = await makeTempRepo();
    const side = `${repo.dir}-side`;
    const config = { XDG_CONFIG_HOME: join(side, 'config') };
    const counts = join(side, 'counts');
    await setTrust(repo.dir, true, config);
    const url = await server.createDatabase('lost_journal');
    const env = {
      ...config,
      SWITCHYARD_DATABASE_URL: url,
      SWITCHYARD_BACKEND: 'postgres',
      SWITCHYARD_PROJECT: 'team',
    };
    const project = await Project.open(repo.dir, {
      registry: new LaneRegistry(),
      backend: { kind: 'postgres', url, project: 'team' },
    });
    cleanups.push(async () => {
      await project.close();
      await repo.cleanup();
      await rm(side, { recursive: true, force: true });
    });
    await project.settings.update((s) => {
      Object.assign(s, {
        laneModules: [CRASH],
        defaultLane: 'crash',
        leaseMs: 1_000,
        laneSettings: { crash: { countsDir: counts } },
      });
      s.integration.enabled = false;
    });
    await project.tasks.add({ title: 'crash test' });
    // Call 6 is step 2's never tool: killed once it returned.
    const a = await execa('node', [cli, 'worker', '--once', '--repo', repo.dir], {
      env: { ...env, CRASH_AT: '6:after' },
      extendEnv: true,
      reject: false,
      all: true,
    });
    assert.equal(a.signal, 'SIGKILL', a.all);
    // Journal rows are append-only; an operator (or a restore from an old backup) can still lose them.
    await sqlRows(
      url,
      `ALTER TABLE sy_journal_events DISABLE TRIGGER sy_journal_events_append_only; DELETE FROM sy_journal_events WHERE run_id = 't1.1'; ALTER TABLE sy_journal_events ENABLE TRIGGER sy_journal_events_append_only`,
    );
    await until(
      "the dead worker's lease on t1.1 to expire",
      async () =>
        (await sqlRows(url, `SELECT 1 FROM sy_run_leases WHERE run_id = 't1.1' AND expires_at > clock_timestamp()`))
          .length === 0,
    );
    const resumed = await execa('node', [cli, 'resume', '--repo', repo.dir], { env, extendEnv: true, reject: false });
    assert.equal(resumed.exitCode, 1, `${resumed.stdout}\n${resumed.stderr}`);
    assert.match(resumed.stderr, /resumed run\(s\) failed: t1\.1 \(journal-missing\)/);
    const state = await project.state();
    assert.equal(state.runs.length, 1, 'not restarted from scratch as a new attempt');
    assert.equal(state.runs[0]!.failureCode, 'journal-missing');
    assert.match(
      state.runs[0]!.failureReason!,
      /PostgreSQL .* sy_journal_events \(project team, run t1\.1\) is missing or empty/,
    );
    assert.equal(state.tasks[0]!.state, 'FAILED');
    const count = (name: string) => {
      try {
        return readFileSync(join(counts, name), 'utf8').trim().split('\n').length;
      } catch {
        return 0;
      }
    };
    assert.deepEqual(
      [1, 2, 3].map((i) => count(`never-${i}`)),
      [1, 1, 0],
      'the never-calls that ran did not run again',
    );
  });
});

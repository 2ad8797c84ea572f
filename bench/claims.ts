import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { BackendSpec } from '../src/core/backend/backendSpec';
import { openBackend } from '../src/core/backend/openBackend';
import { Project } from '../src/core/project/project';
import { registryWithBuiltins } from '../src/lanes/builtinLanes';
import { startPostgres, type PostgresServer } from '../test/helpers/postgresServer';
import { makeTempRepo } from '../test/helpers/tempRepo';
import type { Probes, TxTiming, WorkerConfig, WorkerResult } from './claimsWorker';

/** Tasks per measurement (SWITCHYARD_BENCH_CLAIMS_TASKS overrides). */
const TASKS = Number(process.env.SWITCHYARD_BENCH_CLAIMS_TASKS ?? 150);
const WORKERS = [1, 2, 4] as const;
/**
 * Interleaved rounds of all six measurements (SWITCHYARD_BENCH_CLAIMS_ROUNDS overrides); the table shows each one's
 * best round.
 */
const ROUNDS = Number(process.env.SWITCHYARD_BENCH_CLAIMS_ROUNDS ?? 2);
/** The project's RUNNING limit: far above the workers' in-flight runs, so WIP never throttles a claim. */
const WIP_RUNNING = 16;
const KINDS = ['files', 'postgres'] as const;
type Kind = (typeof KINDS)[number];

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('./claimsWorker.ts', import.meta.url));

interface Measured {
  kind: Kind;
  workers: number;
  wallMs: number;
  perSecond: number;
  perWorker: number[];
  emptyClaims: number;
  probes: Probes;
  statements: Record<string, { n: number; ms: number; rows: number }>;
  load: [number, number];
  claim: TxTiming[];
  finish: TxTiming[];
}

/**
 * Claims per second with 1, 2 and 4 worker processes on one machine, the
 * PostgreSQL backend against the files backend (the baseline, same worker
 * count, same run). Each measurement: a fresh repository (and for
 * PostgreSQL a fresh database on one throwaway server), TASKS independent
 * READY tasks, then W processes (`bench/claimsWorker.ts`) that each claim
 * one task at a time with the real `claimTasks` and record it finished at
 * once with the real `finishRun` in a state transaction, until no READY task
 * is left. No worktrees, no lanes: only the claim path. Every task must end
 * DONE with exactly one run, claimed by exactly one worker.
 */
export async function benchClaims(): Promise<void> {
  const cleanup = new Cleanup();
  let interrupted: NodeJS.Signals | undefined;
  const exitCode = (signal: NodeJS.Signals): number => (signal === 'SIGINT' ? 130 : 143);
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupted = signal;
    console.error(`claims benchmark: ${signal}, cleaning up`);
    void cleanup.run().finally(() => process.exit(exitCode(signal)));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const server = await startPostgres();
    cleanup.add(() => server.stop());
    console.log(
      `${TASKS} independent tasks per measurement, ${ROUNDS} interleaved round(s), one task per claim, finished at once; ` +
        `nproc ${availableParallelism()}, load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}; ` +
        `PostgreSQL ${await serverVersion(server.url)} on loopback (fsync on), files backend in ${tmpdir()}`,
    );
    const results: Measured[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS}`);
      for (const workers of WORKERS) {
        for (const kind of KINDS) {
          const m = await measure(kind, workers, server, cleanup);
          results.push(m);
          console.log(detail(m));
        }
      }
    }
    report(results);
  } catch (error) {
    // Killed children make the measurement fail: after a signal, that is not the error to report.
    if (interrupted) {
      await cleanup.run();
      process.exit(exitCode(interrupted));
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanup.run();
  }
}
benchClaims.title = 'Team backend: claims per second with 1, 2, 4 worker processes, PostgreSQL vs files';

let databases = 0;

async function measure(kind: Kind, workers: number, server: PostgresServer, cleanup: Cleanup): Promise<Measured> {
  const repo = await makeTempRepo();
  const removeRepo = cleanup.add(() => repo.cleanup());
  const children: Worker[] = [];
  const stopChildren = cleanup.add(async () => {
    for (const child of children) child.kill();
    await Promise.all(children.map((c) => c.exited.catch(() => undefined)));
  });
  try {
    const spec: BackendSpec =
      kind === 'files'
        ? { kind: 'files' }
        : { kind: 'postgres', url: await server.createDatabase(`claims_${++databases}_w${workers}`), project: 'bench' };
    const project = await Project.open(repo.dir, { registry: registryWithBuiltins(), backend: spec });
    try {
      await project.settings.update((s) => {
        s.wip.RUNNING = WIP_RUNNING;
        s.integration.enabled = false;
      });
      await project.tasks.addMany(Array.from({ length: TASKS }, (_, i) => ({ title: `claim ${i + 1}` })));
    } finally {
      await project.close();
    }

    const fault = process.env.SWITCHYARD_BENCH_CLAIMS_FAULT as WorkerConfig['fault'] | undefined;
    for (let i = 0; i < workers; i++)
      children.push(new Worker({ root: repo.dir, backend: spec, ...(fault && i === 0 ? { fault } : {}) }));
    await withTimeout(Promise.all(children.map((c) => c.ready)), 60_000, `${kind}: ${workers} worker(s) starting`);
    const loadBefore = loadavg()[0]!;
    for (const child of children) child.go();
    const results = await withTimeout(
      Promise.all(children.map((c) => c.result)),
      180_000,
      `${kind}: ${workers} worker(s) claiming ${TASKS} tasks`,
    );
    await withTimeout(Promise.all(children.map((c) => c.exited)), 30_000, `${kind}: ${workers} worker(s) exiting`);

    await verify(kind, workers, repo.dir, spec, results);
    const wallMs = Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt));
    return {
      kind,
      workers,
      wallMs,
      perSecond: TASKS / (wallMs / 1000),
      perWorker: results.map((r) => r.claimed.length),
      emptyClaims: results.reduce((n, r) => n + r.emptyClaims, 0),
      probes: medianProbes(results.map((r) => r.probes)),
      statements: sumStatements(results.map((r) => r.statements)),
      load: [loadBefore, loadavg()[0]!],
      claim: results.flatMap((r) => r.claims),
      finish: results.flatMap((r) => r.finishes),
    };
  } finally {
    await stopChildren();
    await removeRepo();
  }
}

/**
 * Every task claimed exactly once: the workers' reports add up to TASKS distinct tasks, and the stored state agrees.
 */
async function verify(
  kind: Kind,
  workers: number,
  root: string,
  spec: BackendSpec,
  results: readonly WorkerResult[],
): Promise<void> {
  const backend = await openBackend(root, spec);
  const state = await backend.state.read().finally(() => backend.close());
  const problems: string[] = [];
  const reported = results.flatMap((r) => r.claimed);
  const reportedRuns = new Set(results.flatMap((r) => r.runs));
  if (reported.length !== TASKS) problems.push(`the workers claimed ${reported.length} tasks in all, not ${TASKS}`);
  const byTask = new Map<string, number>();
  for (const id of reported) byTask.set(id, (byTask.get(id) ?? 0) + 1);
  for (const [id, n] of byTask) if (n > 1) problems.push(`task ${id} was claimed ${n} times`);
  if (state.tasks.length !== TASKS) problems.push(`the state holds ${state.tasks.length} tasks, not ${TASKS}`);
  if (state.runs.length !== TASKS) problems.push(`the state holds ${state.runs.length} runs, not ${TASKS}`);
  for (const task of state.tasks) {
    const runs = state.runs.filter((r) => r.taskId === task.id);
    if (task.state !== 'DONE') problems.push(`task ${task.id} is ${task.state}, not DONE`);
    if (runs.length !== 1) problems.push(`task ${task.id} has ${runs.length} runs`);
    for (const run of runs) {
      if (run.state !== 'SUCCEEDED') problems.push(`run ${run.id} is ${run.state}`);
      if (!reportedRuns.has(run.id)) problems.push(`run ${run.id} is in the state but no worker reported claiming it`);
    }
    if (!byTask.has(task.id)) problems.push(`task ${task.id} was claimed by no worker`);
  }
  if (problems.length) {
    throw new Error(
      `claims benchmark, ${kind} backend, ${workers} worker(s): ${problems.length} problem(s): ${problems.slice(0, 6).join('; ')}${problems.length > 6 ? '; …' : ''}`,
    );
  }
}

/** A `node --import tsx bench/claimsWorker.ts` child speaking line-delimited JSON on stdout. */
class Worker {
  readonly ready: Promise<void>;
  readonly result: Promise<WorkerResult>;
  readonly exited: Promise<void>;
  private readonly child: ChildProcessWithoutNullStreams;
  private stderr = '';

  constructor(config: WorkerConfig) {
    // The connection string holds a password: passed in the environment, not on the command line.
    this.child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      cwd: ROOT,
      env: { ...process.env, SWITCHYARD_CLAIMS_WORKER: JSON.stringify(config) },
      stdio: 'pipe',
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    const failed = (): Error =>
      new Error(
        `claims worker ${this.child.pid} exited (code ${this.child.exitCode}, signal ${this.child.signalCode}) before it reported: ${this.stderr.trim() || '(no stderr)'}`,
      );
    this.exited = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code, signal) =>
        code === 0
          ? resolve()
          : reject(
              new Error(
                `claims worker ${this.child.pid} exited with code ${code}, signal ${signal}: ${this.stderr.trim() || '(no stderr)'}`,
              ),
            ),
      );
    });
    // The rejections are seen through `ready`/`result`; never an unhandled rejection.
    this.exited.catch(() => undefined);
    let onReady: () => void;
    let onResult: (r: WorkerResult) => void;
    this.ready = new Promise((resolve, reject) => {
      onReady = resolve;
      this.exited.then(
        () => reject(failed()),
        () => reject(failed()),
      );
    });
    this.result = new Promise((resolve, reject) => {
      onResult = resolve;
      this.exited.then(
        () => reject(failed()),
        () => reject(failed()),
      );
    });
    this.ready.catch(() => undefined);
    this.result.catch(() => undefined);
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      let message: { type?: string };
      try {
        message = JSON.parse(line) as { type?: string };
      } catch {
        return;
      }
      if (message.type === 'ready') onReady();
      if (message.type === 'result') onResult(message as WorkerResult);
    });
  }

  go(): void {
    this.child.stdin.write('go\n');
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/**
 * Cleanup steps run once each, newest first, on success, failure or a signal; `run` resolves only when every step has
 * ended.
 */
class Cleanup {
  private readonly steps: (() => Promise<void>)[] = [];
  private chain: Promise<void> = Promise.resolve();

  /** Registers `fn`; the returned function runs it now (once; later calls wait for the same run) and forgets it. */
  add(fn: () => Promise<unknown>): () => Promise<void> {
    let done: Promise<void> | undefined;
    const step = (): Promise<void> => {
      const at = this.steps.indexOf(step);
      if (at >= 0) this.steps.splice(at, 1);
      done ??= fn().then(
        () => undefined,
        (error: unknown) => console.error(`claims benchmark cleanup: ${(error as Error)?.message ?? error}`),
      );
      return done;
    };
    this.steps.push(step);
    return step;
  }

  run(): Promise<void> {
    this.chain = this.chain.then(async () => {
      while (this.steps.length) await this.steps[this.steps.length - 1]!();
    });
    return this.chain;
  }
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  } finally {
    await client.end();
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`claims benchmark: ${what} took more than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function quantile(values: readonly number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const ms = (v: number): string => `${v.toFixed(1)} ms`;

function sumStatements(
  list: readonly Record<string, { n: number; ms: number; rows: number }>[],
): Record<string, { n: number; ms: number; rows: number }> {
  const sum: Record<string, { n: number; ms: number; rows: number }> = {};
  for (const one of list) {
    for (const [key, { n, ms, rows }] of Object.entries(one)) {
      const entry = (sum[key] ??= { n: 0, ms: 0, rows: 0 });
      entry.n += n;
      entry.ms += ms;
      entry.rows += rows;
    }
  }
  return sum;
}

function medianProbes(list: readonly Probes[]): Probes {
  const keys = Object.keys(list[0]!) as (keyof Probes)[];
  return Object.fromEntries(
    keys.map((k) => [
      k,
      quantile(
        list.map((p) => p[k] ?? NaN),
        0.5,
      ),
    ]),
  ) as unknown as Probes;
}

function detail(m: Measured): string {
  const line = (name: string, list: readonly TxTiming[]): string => {
    const q = (f: (t: TxTiming) => number, p: number): string => ms(quantile(list.map(f), p));
    const pg =
      m.kind === 'postgres'
        ? `; ${quantile(
            list.map((t) => t.queries),
            0.5,
          )} statements, ${q((t) => t.queryMs, 0.5)} waiting for their answers`
        : '';
    return (
      `           ${name} p50 ${q((t) => t.totalMs, 0.5)} = to lock ${q((t) => t.toLockMs, 0.5)} + apply ` +
      `${q((t) => t.appliedMs - t.toLockMs, 0.5)} + write ${q((t) => t.totalMs - t.appliedMs, 0.5)}${pg}; ` +
      `p99 ${q((t) => t.totalMs, 0.99)} (to lock ${q((t) => t.toLockMs, 0.99)})`
    );
  };
  // From the change function's start to the update's end, every transaction holds the lock: a lower bound (the read
  // under the lock is before it).
  const held = [...m.claim, ...m.finish].reduce((s, t) => s + t.totalMs - t.toLockMs, 0);
  const p = m.probes;
  const probes = [
    `read ${ms(p.readMs)}`,
    `validate ${ms(p.validateMs)}`,
    ...(p.writeMs !== undefined ? [`atomic write ${ms(p.writeMs)}`] : []),
    ...(p.roundTripMs !== undefined ? [`SELECT 1 ${ms(p.roundTripMs)}`] : []),
  ];
  return [
    `${m.kind.padEnd(8)} W=${m.workers}: ${TASKS} claims in ${(m.wallMs / 1000).toFixed(2)} s = ` +
      `${m.perSecond.toFixed(1)} claims/s; per worker ${m.perWorker.join('/')}; empty claims ${m.emptyClaims}; load ${m.load.map((l) => l.toFixed(1)).join('→')}`,
    line('claim ', m.claim),
    line('finish', m.finish),
    `           lock held ≥ ${(held / m.wallMs).toFixed(2)} of the wall time; probes before the start (all READY, no runs): ${probes.join(', ')}`,
    ...(Object.keys(m.statements).length
      ? [
          `           statements per claim (claim + finish), ms waiting for the answer: ${Object.entries(m.statements)
            .sort((a, b) => b[1].ms - a[1].ms)
            .map(
              ([k, v]) =>
                `${k} ×${(v.n / TASKS).toFixed(1)}` +
                `${/^(INSERT|UPDATE|DELETE)/.test(k) ? ` (${(v.rows / TASKS).toFixed(1)} rows)` : ''}` +
                ` ${(v.ms / TASKS).toFixed(1)}`,
            )
            .join(', ')}`,
        ]
      : []),
  ].join('\n');
}

function report(results: readonly Measured[]): void {
  const all = (kind: Kind, workers: number): number[] =>
    results.filter((r) => r.kind === kind && r.workers === workers).map((r) => r.perSecond);
  const best = (kind: Kind, workers: number): number => Math.max(...all(kind, workers));
  const cell = (kind: Kind, workers: number): string =>
    `${best(kind, workers).toFixed(1)}${
      ROUNDS > 1
        ? ` (${all(kind, workers)
            .map((v) => v.toFixed(1))
            .join(', ')})`
        : ''
    }`;
  const x = (v: number): string => `${v.toFixed(2)}x`;
  console.log(
    '\nPer claimed task: claimTasks (an unlocked read, then one state transaction) and one finishing transaction (RUNNING → VERIFYING, finishRun).',
  );
  console.log(
    `Claims/s: best of ${ROUNDS} round(s) (every round in brackets). Baseline: the files backend at the same W.`,
  );
  const rows = [
    ['W', 'files claims/s (baseline)', 'postgres claims/s', 'postgres/files', 'files vs W=1', 'postgres vs W=1'],
  ];
  for (const workers of WORKERS) {
    rows.push([
      String(workers),
      cell('files', workers),
      cell('postgres', workers),
      x(best('postgres', workers) / best('files', workers)),
      x(best('files', workers) / best('files', 1)),
      x(best('postgres', workers) / best('postgres', 1)),
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows)
    console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}

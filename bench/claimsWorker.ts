/**
 * One worker process of `bench/claims.ts`. Opens the project's backend (the
 * spec comes in SWITCHYARD_CLAIMS_WORKER as JSON, so a connection string
 * never shows in `ps`), prints `{"type":"ready"}`, waits for a line `go` on
 * stdin, then loops until no READY task is left:
 *
 * - claim: the real `claimTasks` with a `SchedulerMirror` kept for the whole
 *   loop, as a drain keeps it, and `limit` 1: what a drain with `maxActive`
 *   1 (`switchyard worker --concurrency 1`) passes when it runs nothing. The
 *   scheduler picks under the project's WIP limits, which the parent sets
 *   well above the number of workers; the claim takes the best pick and
 *   leaves the rest READY. (The mirror's own `concurrency` option would not
 *   do: it replaces the project-wide RUNNING limit, so W workers at
 *   concurrency 1 would run one task at a time between them.);
 * - finish: at once, one state transaction (`store.update`) that moves the
 *   task RUNNING → VERIFYING (`setTaskState`, what the engine's stage gate
 *   does in a transaction of its own) and then calls the real `finishRun`
 *   with an ok end (run SUCCEEDED, task DONE, the lane's breaker updated).
 *   A real run also takes and releases a lease and enters VERIFYING
 *   separately: the engine writes more per task than this loop.
 *
 * Prints one `{"type":"result", ...}` line: the task ids and run ids it
 * claimed; per transaction the time until the change function ran (lock
 * taken, state read), until it returned, and until the update resolved;
 * with PostgreSQL, the statements sent (counted by wrapping
 * `pg.Client.prototype.query` in this process only) and their answer times;
 * and a few costs probed once before the start.
 */
import { envGitHubTokens } from '../src/core/credentials/githubTokenStore';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openBackend } from '../src/core/backend/openBackend';
import type { BackendSpec } from '../src/core/backend/backendSpec';
import { claimTasks } from '../src/core/engine/drain/claimTasks';
import { finishRun } from '../src/core/transitions/finishRun';
import type { RunContext } from '../src/core/engine/runContext';
import { makeOwnerId } from '../src/core/lease/ownerId';
import { SchedulerMirror } from '../src/core/engine/drain/schedulerMirror';
import { StageGate } from '../src/core/engine/stageGate';
import { findTask, setTaskState } from '../src/core/engine/commands/taskCommands';
import { TraceLog } from '../src/core/store/traceLog';
import { envSecretSource } from '../src/core/secrets/secretSource';
import type { PickResult } from '../src/core/scheduler/scheduler';
import { AtomicJsonFile } from '../src/core/store/atomicJsonFile';
import { ProjectState } from '../src/core/store/projectState';
import { STATE_DIR } from '../src/core/store/stateDir';
import { registryWithBuiltins } from '../src/lanes/builtinLanes';

export interface WorkerConfig {
  root: string;
  backend: BackendSpec;
  /** For testing the parent's check: `unfinished` leaves the first claimed run RUNNING. */
  fault?: 'unfinished';
}

/**
 * Per transaction, ms from the call: until the change function started
 * (reads, lock wait, the read under the lock), until it returned (the
 * engine's own work on the state), and until the update resolved
 * (validation, serialization, write, fsync or COMMIT, unlock).
 */
export interface TxTiming {
  toLockMs: number;
  appliedMs: number;
  totalMs: number;
  /** PostgreSQL: statements sent during the call, and ms spent waiting for their answers. */
  queries: number;
  queryMs: number;
}

/** Costs measured once before the start, on the state as set up (every task READY, no run yet). */
export interface Probes {
  /** One unlocked `store.read()` (median of 9). */
  readMs: number;
  /** `ProjectState.safeParse` of the whole state, as every update does before writing (median of 9). */
  validateMs: number;
  /**
   * files: one atomic write of the whole state (serialize, write, fsync, rename, fsync dir) to a probe file (median of
   * 5).
   */
  writeMs?: number;
  /** postgres: one `SELECT 1` round trip on a connection of its own (median of 21). */
  roundTripMs?: number;
}

export interface WorkerResult {
  type: 'result';
  pid: number;
  probes: Probes;
  /** PostgreSQL: per kind of statement sent during the loop, how many and the ms until their answers. */
  statements: Record<string, { n: number; ms: number; rows: number }>;
  claimed: string[];
  runs: string[];
  /** Claims that returned no task although the loop went on (WIP full, or a race at the end). */
  emptyClaims: number;
  /** Epoch ms (sub-ms precision) when the loop started and ended. */
  startedAt: number;
  endedAt: number;
  /** Claims that took a task (the final empty claim is not in here). */
  claims: TxTiming[];
  finishes: TxTiming[];
}

const now = (): number => performance.timeOrigin + performance.now();

/** Every statement any pg client in this process sends: how many, and how long until its answer. */
const pgStats = {
  queries: 0,
  ms: 0,
  byStatement: new Map<string, { n: number; ms: number; rows: number }>(),
  counting: false,
};
{
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]): unknown {
    const started = now();
    const first = args[0];
    const sql = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '?');
    const done = (answer?: unknown): void => {
      const took = now() - started;
      pgStats.queries += 1;
      pgStats.ms += took;
      if (!pgStats.counting) return;
      const key = statementKey(sql);
      const entry = pgStats.byStatement.get(key) ?? { n: 0, ms: 0, rows: 0 };
      entry.n += 1;
      entry.ms += took;
      entry.rows += (answer as { rowCount?: number } | undefined)?.rowCount ?? 0;
      pgStats.byStatement.set(key, entry);
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...cbArgs: unknown[]) => {
        done(cbArgs[1]);
        return (callback as (...a: unknown[]) => unknown)(...cbArgs);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(done, () => done());
    return result;
  };
}

/** `INSERT INTO sy_tasks`, `SELECT pg_advisory_xact_lock`, `COMMIT`…: enough of a statement to tell it apart. */
function statementKey(sql: string): string {
  const words = sql.replace(/\s+/g, ' ').trim().split(' ');
  const head = words[0]!.toUpperCase();
  if (head === 'SELECT') {
    const what = words.slice(1, 3).join(' ');
    return what.startsWith('p.version') ? 'SELECT state (load)' : `SELECT ${what.replace(/\(.*$/, '')}`;
  }
  if (head === 'INSERT' || head === 'DELETE') return words.slice(0, 3).join(' ');
  if (head === 'UPDATE') return words.slice(0, 2).join(' ');
  return head;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function timed(times: number, fn: () => unknown): Promise<number> {
  const list: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = now();
    await fn();
    list.push(now() - t);
  }
  return median(list);
}

async function probe(config: WorkerConfig, read: () => Promise<ProjectState>): Promise<Probes> {
  const state = await read();
  for (let i = 0; i < 5; i++) ProjectState.safeParse(state);
  const probes: Probes = {
    readMs: await timed(9, read),
    validateMs: await timed(9, () => ProjectState.safeParse(state)),
  };
  if (config.backend.kind === 'files') {
    const file = join(config.root, STATE_DIR, `probe-${process.pid}.json`);
    const writer = new AtomicJsonFile(file, ProjectState);
    probes.writeMs = await timed(5, () => writer.write(state));
    await rm(file, { force: true });
  } else {
    const client = new pg.Client({ connectionString: config.backend.url });
    await client.connect();
    try {
      probes.roundTripMs = await timed(21, () => client.query('SELECT 1'));
    } finally {
      await client.end();
    }
  }
  return probes;
}

/**
 * A drain's mirror that notes when the claim's change function starts (under the lock) and when the scheduler has
 * picked.
 */
class TimedMirror extends SchedulerMirror {
  enteredAt = 0;
  appliedAt = 0;

  override sync(state: ProjectState, at: number): number {
    this.enteredAt = now();
    return super.sync(state, at);
  }

  /** Near the end of claimTasks' change function (newRun for the picked task follows: microseconds). */
  override pick(at: number, max = Infinity): PickResult {
    const result = super.pick(at, max);
    this.appliedAt = now();
    return result;
  }
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env.SWITCHYARD_CLAIMS_WORKER ?? '') as WorkerConfig;
  const backend = await openBackend(config.root, config.backend);
  try {
    const registry = registryWithBuiltins();
    const ctx: RunContext = {
      root: config.root,
      store: backend.state,
      leases: backend.leases,
      journals: backend.journals,
      registry,
      owner: makeOwnerId(),
      parentEnv: process.env,
      secrets: envSecretSource(process.env),
      githubTokens: envGitHubTokens(process.env),
      watchState: (listener) => {
        const watching = backend.watch(listener);
        return () => watching.dispose();
      },
      stageGate: new StageGate(backend.state),
      trace: new TraceLog(config.root),
    };
    const mirror = new TimedMirror();
    // As a drain does before its loop: one read, and the scheduler built from it.
    mirror.sync(await ctx.store.read(), Date.now());
    const probes = await probe(config, () => ctx.store.read());

    const lines = createInterface({ input: process.stdin });
    const go = new Promise<void>((resolve) => lines.on('line', (line) => line.trim() === 'go' && resolve()));
    process.stdout.write(`${JSON.stringify({ type: 'ready', pid: process.pid })}\n`);
    await go;
    lines.close();

    pgStats.counting = true;
    const result: WorkerResult = {
      type: 'result',
      pid: process.pid,
      probes,
      statements: {},
      claimed: [],
      runs: [],
      emptyClaims: 0,
      startedAt: now(),
      endedAt: 0,
      claims: [],
      finishes: [],
    };
    for (;;) {
      const called = now();
      const before = { ...pgStats };
      // As a drain does: an unlocked look at the state (its settings go to the claim), then the claim.
      const claim = await claimTasks(ctx, mirror, (await ctx.store.read()).settings, Date.now(), 1);
      const timing: TxTiming = {
        toLockMs: mirror.enteredAt - called,
        appliedMs: mirror.appliedAt - called,
        totalMs: now() - called,
        queries: pgStats.queries - before.queries,
        queryMs: pgStats.ms - before.ms,
      };
      if (claim.claimed.length === 0) {
        // No READY task left in the stored state (looked at as a drain does, unlocked): this worker is done (nothing
        // here fails or retries).
        mirror.sync(await ctx.store.read(), Date.now());
        if (mirror.current.readyCount === 0) break;
        result.emptyClaims += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      result.claims.push(timing);
      for (const { task, run } of claim.claimed) {
        result.claimed.push(task.id);
        result.runs.push(run.id);
        if (config.fault === 'unfinished' && result.claimed.length === 1) continue;
        const started = now();
        const before = { ...pgStats };
        let entered = 0;
        let applied = 0;
        await ctx.store.update((state) => {
          entered = now();
          // The engine moves the task to VERIFYING in its own transaction (the stage gate) before finishRun; here both
          // happen in one.
          setTaskState(findTask(state, task.id), 'VERIFYING');
          const line = finishRun(
            state,
            registry,
            run.id,
            { ok: true, summary: 'claims benchmark' },
            { now: Date.now() },
          );
          applied = now();
          return line;
        });
        result.finishes.push({
          toLockMs: entered - started,
          appliedMs: applied - started,
          totalMs: now() - started,
          queries: pgStats.queries - before.queries,
          queryMs: pgStats.ms - before.ms,
        });
      }
    }
    result.endedAt = now();
    pgStats.counting = false;
    result.statements = Object.fromEntries(pgStats.byStatement);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await backend.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`claims worker ${process.pid}: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

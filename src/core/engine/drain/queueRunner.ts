import type { Run } from '../../model/run';
import type { ProjectSettings, ProjectState } from '../../store/projectState';
import { workingOnlyInfo } from '../../store/workingOnly';
import { runAutoMaintenance } from '../../git/autoMaintenance';
import type { Stage } from '../../model/taskStates';
import type { Task } from '../../model/task';
import { pruneSetupCache } from '../../workspace/pruneSetupCache';
import { pruneWorktrees } from '../../workspace/worktrees';
import { measureWorktreeUsage } from '../../workspace/worktreeUsage';
import { claimTasks } from './claimTasks';
import { DrainTrace } from './drainTrace';
import { superviseGit } from './supervisedGit';
import { executeRun, type ResumeInfo } from '../run/executeRun';
import { recoverInterruptedRuns } from './recoverRuns';
import type { RunContext } from '../runContext';
import { type RunPlan, planRun } from '../runPlan';
import { SchedulerMirror } from './schedulerMirror';
import { StageMeter } from './stageMeter';
import { releaseBranchUpdates } from '../integration/targetBranch';
import { pruneKeptWorktrees } from '../run/worktreeLifecycle';
import { fileWaits, type FileWait } from '../../model/fileWaits';
import { pruneTaskBranches } from './branchRetention';

export { recoverInterruptedRuns, type Recovery } from './recoverRuns';

export interface QueueOptions {
  /** Only these tasks (default: every READY task). */
  taskIds?: readonly string[];
  /** Stops the queue: no new starts, running runs are aborted and their tasks return to READY. */
  signal?: AbortSignal;
  /** Stops claiming: runs already started finish normally, then the drain ends (a worker's graceful shutdown). */
  stopClaiming?: AbortSignal;
  /**
   * Stops running runs without recording an end: each one's lease expires at once, so another process resumes it from
   * its journal.
   */
  handBack?: AbortSignal;
  /**
   * How often a long drain looks for runs whose owner is gone, to take them over (default: only when the drain starts).
   */
  recoverEveryMs?: number;
  /** The RUNNING limit for this drain (default: the project's `wip.RUNNING`). */
  concurrency?: number;
  /**
   * At most this many runs of this process at once (a worker's share); the project's WIP limits still hold across
   * processes.
   */
  maxActive?: number;
  /** Only resume interrupted runs; start no new ones. */
  resumeOnly?: boolean;
  onRunStarted?(run: Run, task: Task): void;
  onRunFinished?(run: Run): void;
  /**
   * Nothing of this drain runs, and tasks it would start wait for files held by tasks in progress in this process: the
   * drain waits for them to end (called once each time it starts waiting).
   */
  onWaitingForFiles?(waits: FileWait[]): void;
}

export interface QueueStats {
  /** Claims that started at least one run. */
  batches: number;
  /** The most of this drain's runs that were in each stage at once. */
  peak: Record<Stage, number>;
  wallMs: number;
}

export interface QueueSummary {
  runs: Run[];
  /** Interrupted runs that were failed as `interrupted` (one line each). */
  recovered: string[];
  /** Ids of runs resumed from their journals. */
  resumed: string[];
  /** READY or BLOCKED tasks left because a dependency is not DONE. */
  waiting: { taskId: string; on: string[] }[];
  /** READY tasks left because a task in progress (in another process: this drain waited for its own) holds a file. */
  fileWaits: FileWait[];
  stats: QueueStats;
}

/**
 * Drains the queue: resumes or recovers interrupted runs, then, as long as
 * something can start or is running, claims what the scheduler picks (under
 * the store lock, so two processes never take the same task) and runs it
 * through its stages. It wakes when a run ends, when a stage slot frees
 * (backpressure lifts), or when a retry backoff or a breaker's cooldown ends.
 */
export async function runQueue(ctx: RunContext, options: QueueOptions = {}): Promise<QueueSummary> {
  const release = superviseGit();
  try {
    return await drain(ctx, options);
  } finally {
    release();
  }
}

async function drain(ctx: RunContext, options: QueueOptions): Promise<QueueSummary> {
  const started = Date.now();
  const recovery = await recoverInterruptedRuns(ctx);
  await pruneWorktrees(ctx.root);
  for (const message of await pruneKeptWorktrees(ctx, started))
    ctx.trace.append({ type: 'decision', kind: 'worktree', message });
  const limits = (await ctx.store.readWorking()).settings.worktree;
  for (const message of await pruneSetupCache(ctx.root, limits, started).catch(() => []))
    ctx.trace.append({ type: 'decision', kind: 'worktree', message });
  for (const message of await pruneTaskBranches(ctx, limits.keepBranchesDays, started).catch(() => []))
    ctx.trace.append({ type: 'decision', kind: 'worktree', message });
  await measureWorktreeUsage(ctx.root).catch(() => undefined);
  const stop = options.signal ?? new AbortController().signal;
  const noClaims = options.stopClaiming ?? new AbortController().signal;
  const only = options.taskIds ? new Set(options.taskIds) : undefined;
  const mirror = new SchedulerMirror({ concurrency: options.concurrency, only });
  const initial = await readForMirror(ctx, mirror);
  mirror.sync(initial, started);
  const trace = new DrainTrace(ctx.trace, mirror, ctx.stageGate);
  trace.started(initial, only);

  const meter = new StageMeter();
  const active = new Map<string, Promise<void>>();
  const finished: Run[] = [];
  let batches = 0;
  const start = (task: Task, run: Run, plan: RunPlan, resume?: ResumeInfo, why?: string): void => {
    options.onRunStarted?.(run, task);
    meter.enter(task.id, 'RUNNING');
    const job = executeRun(ctx, task, run, stop, plan, resume, why, options.handBack)
      .then((done) => {
        finished.push(done);
        trace.runFinished(done);
        options.onRunFinished?.(done);
      })
      .finally(() => {
        meter.leave(task.id);
        active.delete(run.id);
      });
    active.set(run.id, job);
  };
  const offEntered = ctx.stageGate.onEntered((taskId, stage) => meter.enter(taskId, stage));
  const offLeft = ctx.stageGate.onLeft((taskId) => meter.leave(taskId));
  const wake = new Wake(
    ctx.stageGate.onChange(() => wake.ring()),
    [stop, noClaims],
  );
  const recovered = { decisions: [...recovery.decisions], resumed: recovery.resumed.map((r) => r.run.id) };
  let lastRecovery = started;
  let waitingForFiles = false;
  try {
    // A run taken over is claimed anew by this process: its plan is made now.
    const resumedPlan = async () => planRun((await ctx.store.readWorking()).settings);
    if (recovery.resumed.length) {
      const plan = await resumedPlan();
      for (const { task, run, previousOwner } of recovery.resumed) start(task, run, plan, { previousOwner });
    }
    while (!stop.aborted && !noClaims.aborted) {
      const now = Date.now();
      if (options.recoverEveryMs !== undefined && now - lastRecovery >= options.recoverEveryMs) {
        lastRecovery = now;
        const again = await recoverInterruptedRuns(ctx);
        recovered.decisions.push(...again.decisions);
        if (again.resumed.length) {
          const plan = await resumedPlan();
          for (const { task, run, previousOwner } of again.resumed) {
            recovered.resumed.push(run.id);
            start(task, run, plan, { previousOwner });
          }
        }
      }
      const look = options.resumeOnly ? undefined : await lookAhead(ctx, mirror, now);
      const room = options.maxActive === undefined ? undefined : options.maxActive - active.size;
      if (look?.claim && (room === undefined || room > 0)) {
        const claim = await claimTasks(ctx, mirror, look.settings, now, room);
        const plan = planRun(claim.settings);
        for (const c of claim.claimed) start(c.task, c.run, plan, undefined, c.why);
        if (claim.claimed.length) {
          batches += 1;
          ctx.onChange?.();
        }
        trace.claimed(claim);
      } else if (look?.reason) {
        trace.waiting(look.reason, look.backpressure);
      }
      trace.tick(now);
      const due = options.resumeOnly ? undefined : nextWakeAt(mirror, now);
      if (active.size === 0 && due === undefined) {
        // A task this drain would start waits for a file that a run of this process holds: wait for that run's end
        // (the stage gate rings when it leaves), rather than leave the task READY with nothing to start it.
        const heldHere = options.resumeOnly ? [] : await filesHeldHere(ctx, mirror, only);
        if (!heldHere.length) break;
        if (!waitingForFiles) options.onWaitingForFiles?.(heldHere);
        waitingForFiles = true;
      } else {
        waitingForFiles = false;
      }
      // While runs are active, a long drain also wakes to look for runs to take over.
      const next =
        options.recoverEveryMs !== undefined && active.size > 0
          ? Math.min(due ?? Infinity, lastRecovery + options.recoverEveryMs)
          : due;
      await wake.until([...active.values()], next);
    }
    await Promise.all(active.values());
  } finally {
    offEntered();
    offLeft();
    wake.dispose();
    releaseBranchUpdates();
  }

  // Waiting tasks are unfinished; a dependency outside the working set is finished, as the mirror looked it up.
  const state = await readForMirror(ctx, mirror);
  const here = new Map(state.tasks.map((t) => [t.id, t.state]));
  const done = (id: string): boolean => (here.get(id) ?? mirror.stateOf(id)) === 'DONE';
  const waiting = state.tasks
    .filter((t) => (t.state === 'READY' || t.state === 'BLOCKED') && (!only || only.has(t.id)))
    .map((t) => ({ taskId: t.id, on: t.spec.dependsOn.filter((d) => !done(d)) }))
    .filter((w) => w.on.length > 0);
  const held = fileWaits(state, ctx.owner, only);
  const stats: QueueStats = { batches, peak: meter.peak, wallMs: Date.now() - started };
  await measureWorktreeUsage(ctx.root).catch(() => undefined);
  // Run commits skip git's automatic maintenance: it runs once here instead.
  if (finished.length) await runAutoMaintenance(ctx.root);
  trace.ended(`drain ended after ${stats.wallMs} ms: ${finished.length} run(s) in ${batches} batch(es)`);
  await ctx.trace.flush();
  return {
    runs: finished,
    waiting,
    fileWaits: held,
    recovered: recovered.decisions,
    resumed: recovered.resumed,
    stats,
  };
}

/** The file waits of this drain's tasks whose holder runs in this process. */
async function filesHeldHere(
  ctx: RunContext,
  mirror: SchedulerMirror,
  only: ReadonlySet<string> | undefined,
): Promise<FileWait[]> {
  return fileWaits(await readForMirror(ctx, mirror), ctx.owner, only).filter((w) => w.here);
}

/**
 * A cheap look (no lock, no write) at whether a claim could start anything, and if not, why ready work waits; with the
 * settings it read.
 */
async function lookAhead(
  ctx: RunContext,
  mirror: SchedulerMirror,
  now: number,
): Promise<{ claim: boolean; reason?: string; backpressure: boolean; settings: ProjectSettings }> {
  const state = await readForMirror(ctx, mirror);
  const settings = state.settings;
  mirror.sync(state, now);
  const scheduler = mirror.current;
  const hasWork = scheduler.readyCount > 0 || (scheduler.nextRetryAt() ?? Infinity) <= now;
  const verdict = scheduler.stages.startVerdict();
  if (verdict.ok) return { claim: hasWork, backpressure: false, settings };
  return { claim: false, backpressure: verdict.backpressure, settings, ...(hasWork ? { reason: verdict.reason } : {}) };
}

/**
 * The state the drain's scheduler syncs from: the working set alone, with what it needs from the history looked up
 * (`prepare`), on a backend that keeps the history's lane cost samples beside it; the whole state on any other.
 */
async function readForMirror(ctx: RunContext, mirror: SchedulerMirror): Promise<ProjectState> {
  if (!wholeStateStores.has(ctx.store)) {
    const working = await ctx.store.readWorking();
    if (workingOnlyInfo(working)) {
      await mirror.prepare(working, ctx.store);
      return working;
    }
    wholeStateStores.add(ctx.store);
  }
  return ctx.store.read();
}

/** Stores whose working set comes without the history's samples: the drain reads their whole state. */
const wholeStateStores = new WeakSet<object>();

/** When the drain should look again although nothing ends: a retry backoff or a breaker cooldown running out. */
function nextWakeAt(mirror: SchedulerMirror, now: number): number | undefined {
  const retry = mirror.current.nextRetryAt();
  const probe = mirror.nextProbeAt(now);
  const times = [retry, probe].filter((t): t is number => t !== undefined);
  return times.length ? Math.max(now, Math.min(...times)) : undefined;
}

/** Waits for a run to end, a stage to change, a time, or the stop signal. */
class Wake {
  private ring_: (() => void) | undefined;
  /** A ring while nobody waited (during a look at the state): the next wait returns at once, so none is lost. */
  private rang = false;

  constructor(
    private readonly off: () => void,
    private readonly stops: readonly AbortSignal[],
  ) {}

  ring(): void {
    if (this.ring_) this.ring_();
    else this.rang = true;
  }

  until(jobs: Promise<void>[], at: number | undefined): Promise<void> {
    if (this.rang) {
      this.rang = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.ring_ = undefined;
        for (const stop of this.stops) stop.removeEventListener('abort', done);
        resolve();
      };
      const timer = at === undefined || at === Infinity ? undefined : setTimeout(done, Math.max(0, at - Date.now()));
      this.ring_ = done;
      for (const stop of this.stops) stop.addEventListener('abort', done, { once: true });
      for (const job of jobs) void job.then(done, done);
    });
  }

  dispose(): void {
    this.off();
  }
}

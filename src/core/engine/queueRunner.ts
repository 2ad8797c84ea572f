import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import { branchName, pruneWorktrees, worktreePath } from '../workspace/worktrees';
import { existsSync } from 'node:fs';
import { leasePath } from '../journal/journalFiles';
import { leaseIsFree, readLeaseSync, writeLeaseSync } from '../journal/runLease';
import { executeRun, salvageChange, type ResumeInfo } from './executeRun';
import { captureChange } from '../workspace/worktrees';
import { finishRun, findRun } from './finishRun';
import type { RunContext } from './runContext';
import { RunEventLog, eventsPath, writeDiff } from './runFiles';
import { setTaskState } from './taskCommands';

export interface QueueOptions {
  /** Only these tasks (default: every READY task). */
  taskIds?: readonly string[];
  /** Stops the queue: no new starts, running runs are aborted and their tasks return to READY. */
  signal?: AbortSignal;
  concurrency?: number;
  /** Only resume interrupted runs; start no new ones. */
  resumeOnly?: boolean;
  onRunStarted?(run: Run, task: Task): void;
  onRunFinished?(run: Run): void;
}

export interface QueueSummary {
  runs: Run[];
  /** Interrupted runs that were failed as `interrupted` (one line each). */
  recovered: string[];
  /** Ids of runs resumed from their journals. */
  resumed: string[];
  /** READY tasks left because a dependency is not DONE. */
  waiting: { taskId: string; on: string[] }[];
}

/** READY tasks whose dependencies are DONE, most urgent first, oldest first among equals. */
export function readyTasks(state: ProjectState, only?: readonly string[]): Task[] {
  const done = new Set(state.tasks.filter((t) => t.state === 'DONE').map((t) => t.id));
  return state.tasks
    .filter((t) => t.state === 'READY' && (!only || only.includes(t.id)) && t.spec.dependsOn.every((d) => done.has(d)))
    .sort((a, b) => b.spec.priority - a.spec.priority || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id, undefined, { numeric: true }));
}

/**
 * Drains the queue: claims READY tasks (atomically, so two processes never
 * take the same one), runs up to `concurrency` at once, and returns when
 * nothing more can start.
 */
export async function runQueue(ctx: RunContext, options: QueueOptions = {}): Promise<QueueSummary> {
  const recovery = await recoverInterruptedRuns(ctx);
  await pruneWorktrees(ctx.root);
  const stop = options.signal ?? new AbortController().signal;
  const stopped = aborted(stop);
  const active = new Map<string, Promise<void>>();
  const finished: Run[] = [];
  const concurrency = options.concurrency ?? (await ctx.store.read()).settings.concurrency;
  const start = (task: Task, run: Run, resume?: ResumeInfo): void => {
    options.onRunStarted?.(run, task);
    const job = executeRun(ctx, task, run, stop, resume).then((done) => {
      finished.push(done);
      options.onRunFinished?.(done);
    }).finally(() => active.delete(run.id));
    active.set(run.id, job);
  };
  for (const { task, run, previousOwner } of recovery.resumed) start(task, run, { previousOwner });

  while (!stop.aborted) {
    const free = concurrency - active.size;
    const claimed = free > 0 && !options.resumeOnly ? await claim(ctx, free, options.taskIds) : [];
    for (const { task, run } of claimed) start(task, run);
    if (claimed.length) ctx.onChange?.();
    if (active.size === 0) break;
    await Promise.race([...active.values(), stopped]);
  }
  await Promise.all(active.values());

  const state = await ctx.store.read();
  const done = new Set(state.tasks.filter((t) => t.state === 'DONE').map((t) => t.id));
  const waiting = state.tasks
    .filter((t) => t.state === 'READY' && (!options.taskIds || options.taskIds.includes(t.id)))
    .map((t) => ({ taskId: t.id, on: t.spec.dependsOn.filter((d) => !done.has(d)) }))
    .filter((w) => w.on.length > 0);
  return { runs: finished, waiting, recovered: recovery.decisions, resumed: recovery.resumed.map((r) => r.run.id) };
}

async function claim(ctx: RunContext, max: number, only?: readonly string[]): Promise<{ task: Task; run: Run }[]> {
  return ctx.store.update((state) => {
    const picked = readyTasks(state, only).slice(0, max);
    return picked.map((task) => {
      const lane = task.spec.lane ?? state.settings.defaultLane;
      const previous = task.lastRunId ? state.runs.find((r) => r.id === task.lastRunId) : undefined;
      setTaskState(task, 'RUNNING');
      task.attempts += 1;
      // Run numbers never repeat, so a retried task never reuses a branch or worktree.
      const runNumber = nextRunNumber(state, task.id);
      const id = `${task.id}.${runNumber}`;
      const run: Run = {
        id,
        taskId: task.id,
        lane,
        attempt: task.attempts,
        parentRunId: previous?.id,
        retryReason: previous && previous.state === 'FAILED' ? previous.failureReason : undefined,
        resumeFrom: resumeFrom(previous, ctx.registry.get(lane)?.manifest.capabilities.resume),
        generation: task.generation,
        state: 'RUNNING',
        branch: branchName(task.id, runNumber),
        worktree: worktreePath(ctx.root, id),
        baseCommit: task.baseCommit,
        startedAt: new Date().toISOString(),
        owner: ctx.owner,
      };
      task.lastRunId = id;
      state.runs.push(run);
      return { task: structuredClone(task), run: structuredClone(run) };
    });
  });
}

/** A new attempt continues a failed or interrupted one: from its salvaged work, and in its session when the lane resumes at run level. */
function resumeFrom(previous: Run | undefined, resume: 'none' | 'run' | 'call' | undefined): Run['resumeFrom'] {
  if (!previous || previous.state !== 'FAILED') return undefined;
  const sessionId = resume === 'run' ? previous.sessionId : undefined;
  if (!previous.salvage && !sessionId) return undefined;
  return { runId: previous.id, sessionId, salvageBranch: previous.salvage?.branch, commit: previous.salvage?.commit };
}

function nextRunNumber(state: ProjectState, taskId: string): number {
  return state.runs.filter((r) => r.taskId === taskId).length + 1;
}

export interface Recovery {
  /** One line per interrupted run that was failed (and may be retried as a new attempt). */
  decisions: string[];
  /** Runs this process took over to resume from their journals. */
  resumed: { task: Task; run: Run; previousOwner?: string }[];
}

/**
 * Finds runs whose owner is gone (lease expired, or a dead process on this
 * host). Runs of lanes that resume at call level, whose worktree is still
 * there, are taken over (under the store lock, so exactly one process wins)
 * to resume from their journal; the others fail as `interrupted` and follow
 * the retry policy as a new attempt.
 */
export async function recoverInterruptedRuns(ctx: RunContext): Promise<Recovery> {
  const now = Date.now();
  const recovery = await ctx.store.update((state): Recovery & { logs: { runId: string; message: string }[] } => {
    const out: Recovery & { logs: { runId: string; message: string }[] } = { decisions: [], resumed: [], logs: [] };
    for (const run of state.runs) {
      if (run.state !== 'RUNNING' || run.owner === ctx.owner) continue;
      const lease = readLeaseSync(leasePath(ctx.root, run.id));
      if (!leaseIsFree(lease, run.owner, run.startedAt, now, state.settings.leaseMs)) continue;
      const task = state.tasks.find((t) => t.id === run.taskId);
      if (!task) continue;
      const superseded = task.generation !== run.generation || task.state === 'CANCELED';
      if (!superseded && task.state !== 'RUNNING' && task.state !== 'VERIFYING') continue;
      const lane = ctx.registry.get(run.lane);
      if (!superseded && lane?.manifest.capabilities.resume === 'call' && existsSync(run.worktree)) {
        const previousOwner = lease?.owner ?? run.owner;
        run.owner = ctx.owner;
        run.resumes = (run.resumes ?? 0) + 1;
        writeLeaseSync(leasePath(ctx.root, run.id), ctx.owner, state.settings.leaseMs);
        out.resumed.push({ task: structuredClone(task), run: structuredClone(run), previousOwner });
        continue;
      }
      const message = finishRun(state, ctx.registry, run.id, {
        ok: false,
        code: 'interrupted',
        reason: `the process that owned run ${run.id} (${run.owner}) stopped before the run finished`,
      });
      out.decisions.push(message);
      out.logs.push({ runId: run.id, message });
    }
    return out;
  });
  for (const { runId, message } of recovery.logs) {
    const log = new RunEventLog(eventsPath(ctx.root, runId));
    const record = (type: string, body: Record<string, unknown>): void => log.append(type, body);
    record('decision', { message });
    await salvageInterrupted(ctx, runId, record);
    await log.flush();
  }
  if (recovery.decisions.length || recovery.resumed.length) ctx.onChange?.();
  return { decisions: recovery.decisions, resumed: recovery.resumed };
}

/** Keeps what an interrupted run left in its worktree: committed on its branch, named as salvage, its diff saved. */
async function salvageInterrupted(ctx: RunContext, runId: string, record: (type: string, body: Record<string, unknown>) => void): Promise<void> {
  const run = (await ctx.store.read()).runs.find((r) => r.id === runId);
  if (!run || !existsSync(run.worktree)) return;
  try {
    const change = await captureChange(run.worktree, run.baseCommit, `switchyard: salvage of interrupted run ${run.id}`);
    await writeDiff(ctx.root, run.id, change.diff);
    const salvage = change.stat.files > 0 ? await salvageChange(ctx, run.id, change, record) : undefined;
    await ctx.store.update((s) => Object.assign(findRun(s, run.id), { headCommit: change.headCommit, diffStat: change.stat, ...(salvage ? { salvage } : {}) }));
  } catch (error) {
    record('decision', { message: `could not salvage interrupted run ${run.id}: ${(error as Error).message}` });
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

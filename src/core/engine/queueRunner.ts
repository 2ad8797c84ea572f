import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import { branchName, pruneWorktrees, worktreePath } from '../workspace/worktrees';
import { executeRun } from './executeRun';
import { finishRun } from './finishRun';
import { ownerIsGone, type RunContext } from './runContext';
import { RunEventLog, eventsPath } from './runFiles';
import { setTaskState } from './taskCommands';

export interface QueueOptions {
  /** Only these tasks (default: every READY task). */
  taskIds?: readonly string[];
  /** Stops the queue: no new starts, running runs are aborted and their tasks return to READY. */
  signal?: AbortSignal;
  concurrency?: number;
  onRunStarted?(run: Run, task: Task): void;
  onRunFinished?(run: Run): void;
}

export interface QueueSummary {
  runs: Run[];
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
  await recoverInterruptedRuns(ctx);
  await pruneWorktrees(ctx.root);
  const stop = options.signal ?? new AbortController().signal;
  const stopped = aborted(stop);
  const active = new Map<string, Promise<void>>();
  const finished: Run[] = [];
  const concurrency = options.concurrency ?? (await ctx.store.read()).settings.concurrency;

  while (!stop.aborted) {
    const free = concurrency - active.size;
    const claimed = free > 0 ? await claim(ctx, free, options.taskIds) : [];
    for (const { task, run } of claimed) {
      options.onRunStarted?.(run, task);
      const job = executeRun(ctx, task, run, stop).then((done) => {
        finished.push(done);
        options.onRunFinished?.(done);
      }).finally(() => active.delete(run.id));
      active.set(run.id, job);
    }
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
  return { runs: finished, waiting };
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

function nextRunNumber(state: ProjectState, taskId: string): number {
  return state.runs.filter((r) => r.taskId === taskId).length + 1;
}

/** Runs left RUNNING by a process on this host that has died fail as `interrupted` and may be retried. */
export async function recoverInterruptedRuns(ctx: RunContext): Promise<string[]> {
  const decisions = await ctx.store.update((state) => {
    const out: { runId: string; message: string }[] = [];
    for (const run of state.runs) {
      if (run.state !== 'RUNNING' || run.owner === ctx.owner || !ownerIsGone(run.owner)) continue;
      const task = state.tasks.find((t) => t.id === run.taskId);
      if (!task) continue;
      const superseded = task.generation !== run.generation || task.state === 'CANCELED';
      if (!superseded && task.state !== 'RUNNING' && task.state !== 'VERIFYING') continue;
      const message = finishRun(state, ctx.registry, run.id, {
        ok: false,
        code: 'interrupted',
        reason: `the process that owned run ${run.id} (${run.owner}) stopped before the run finished`,
      });
      out.push({ runId: run.id, message });
    }
    return out;
  });
  for (const { runId, message } of decisions) {
    const log = new RunEventLog(eventsPath(ctx.root, runId));
    log.append('decision', { message });
    await log.flush();
  }
  if (decisions.length) ctx.onChange?.();
  return decisions.map((d) => d.message);
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

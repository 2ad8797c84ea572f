import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { PickResult } from '../scheduler/scheduler';
import type { RunContext } from './runContext';
import { newRun } from './newRun';
import type { SchedulerMirror } from './schedulerMirror';
import { readBranch } from './targetBranch';

export interface Claimed {
  task: Task;
  run: Run;
  /** Why this task, on this lane, now. */
  why: string;
}

export interface ClaimResult {
  claimed: Claimed[];
  pick: PickResult;
}

/**
 * Takes the next tasks atomically: under the store lock the drain's
 * scheduler is brought up to the stored state, picks what may start (WIP
 * limits, backpressure, breakers, dependencies, file ownership, priority),
 * and the picked tasks move to RUNNING with their new runs in the same
 * write, so two schedulers never take the same task.
 */
export async function claimTasks(ctx: RunContext, mirror: SchedulerMirror, now: number): Promise<ClaimResult> {
  const settings = (await ctx.store.read()).settings;
  const targetHead = settings.integration.enabled ? await readBranch(ctx.root, settings.integration.targetBranch).catch(() => undefined) : undefined;
  try {
    return await ctx.store.update((state) => {
      mirror.sync(state, now);
      const pick = mirror.pick(now);
      for (const [lane, breaker] of mirror.breakerChanges) state.breakers[lane] = breaker;
      const byId = new Map(state.tasks.map((t) => [t.id, t]));
      const done = (id: string): boolean => byId.get(id)?.state === 'DONE';
      const claimed: Claimed[] = [];
      for (const p of pick.picks) {
        const task = byId.get(p.id);
        if (!task || task.state !== 'READY' || !task.spec.dependsOn.every(done)) {
          mirror.invalidate();
          continue;
        }
        const run = newRun(state, task, { root: ctx.root, owner: ctx.owner, lane: p.lane, resume: ctx.registry.get(p.lane)?.manifest.capabilities.resume, targetHead, now });
        const laneWhy = task.fallbackFrom?.length ? `fallback lane after ${task.fallbackFrom.join(', ')}` : task.spec.lane ? 'the task\'s lane' : 'the project\'s default lane';
        claimed.push({ task: structuredClone(task), run: structuredClone(run), why: `${mirror.current.explain(p)}; lane ${p.lane} (${laneWhy})` });
      }
      mirror.wrote(state.revision + 1);
      return { claimed, pick };
    });
  } catch (error) {
    mirror.invalidate();
    throw error;
  }
}

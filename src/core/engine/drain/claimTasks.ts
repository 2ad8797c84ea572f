import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import type { PickResult } from '../../scheduler/scheduler';
import type { ProjectSettings } from '../../store/projectState';
import type { RunContext } from '../runContext';
import { newRun } from '../../transitions/newRun';
import { PULL_REQUEST_BASE_REF, readBranchQuick, readRef } from '../integration/targetBranch';
import { lastHere, lastWithId } from '../../store/lastWithId';
import type { ProjectState } from '../../store/projectState';
import { MirrorBehind, type SchedulerMirror } from './schedulerMirror';

export interface Claimed {
  task: Task;
  run: Run;
  /** Why this task, on this lane, now. */
  why: string;
}

export interface ClaimResult {
  claimed: Claimed[];
  pick: PickResult;
  /** The settings the claim decided with, as stored in its transaction: the claimed runs' plan (runPlan.ts). */
  settings: ProjectSettings;
}

/**
 * Takes the next tasks atomically: under the store lock the drain's
 * scheduler is brought up to the stored state, picks what may start (WIP
 * limits, backpressure, breakers, dependencies, file ownership, priority),
 * and the picked tasks (at most `limit`) move to RUNNING with their new
 * runs in the same write, so two schedulers never take the same task.
 * `settings` are the ones the caller just read (they decide the target
 * branch whose head new runs record).
 */
export async function claimTasks(
  ctx: RunContext,
  mirror: SchedulerMirror,
  settings: ProjectSettings,
  now: number,
  limit = Infinity,
): Promise<ClaimResult> {
  const targetHead = !settings.integration.enabled
    ? undefined
    : settings.integration.mode === 'pull-request'
      ? await readRef(ctx.root, PULL_REQUEST_BASE_REF).catch(() => undefined)
      : await readBranchQuick(ctx.root, settings.integration.targetBranch).catch(() => undefined);
  try {
    let tries = 0;
    let written: { revision: number } | undefined;
    // Set when the mirror's picks and the stored state parted (a pick not taken): the next sync compares every task.
    let stale = false;
    const claim = (state: ProjectState): ClaimResult => {
      written = state;
      stale = false;
      // A backend that retries the transaction (a dropped connection) runs this again: compare every task afresh.
      if (tries++ > 0) mirror.invalidate();
      mirror.sync(state, now);
      const pick = mirror.pick(now);
      for (const [lane, breaker] of mirror.breakerChanges) state.breakers[lane] = breaker;
      // Looked up from the end (where the working set is) rather than a map of every task built per claim. A
      // dependency outside a working-set-only draft is finished: the mirror looked it up before the sync.
      const byId = { get: (id: string) => lastWithId(state.tasks, id) };
      const done = (id: string): boolean => (lastHere(state.tasks, id)?.state ?? mirror.stateOf(id)) === 'DONE';
      const claimed: Claimed[] = [];
      for (const p of pick.picks) {
        if (claimed.length >= limit) {
          // Picked but not taken (this process is at its share): the next sync puts them back in the ready set.
          stale = true;
          break;
        }
        const task = byId.get(p.id);
        if (task?.state !== 'READY' || !task.spec.dependsOn.every(done)) {
          stale = true;
          continue;
        }
        const run = newRun(state, task, {
          root: ctx.root,
          owner: ctx.owner,
          lane: p.lane,
          resume: ctx.registry.get(p.lane)?.manifest.capabilities.resume,
          targetHead,
          now,
        });
        const laneWhy = task.fallbackFrom?.length
          ? `fallback lane after ${task.fallbackFrom.join(', ')}`
          : task.spec.lane
            ? "the task's lane"
            : "the project's default lane";
        claimed.push({
          task: structuredClone(task),
          run: structuredClone(run),
          why: `${mirror.current.explain(p)}; lane ${p.lane} (${laneWhy})`,
        });
      }
      return { claimed, pick, settings: claimed.length ? structuredClone(state.settings) : state.settings };
    };
    const result = await claimOnWorkingSet(ctx, mirror, claim);
    // The revision the store gave this write (unchanged when nothing was claimed): the mirror reflects exactly it.
    if (written && !stale) mirror.wrote(written.revision);
    else mirror.invalidate();
    return result;
  } catch (error) {
    mirror.invalidate();
    throw error;
  }
}

/** How often a claim looks up what the working set lacks (see MirrorBehind) before it claims on the whole state. */
const LOOKUPS = 3;

/**
 * Runs `claim` on the working set alone; when the mirror needs tasks outside it (finished meanwhile, or a dependency
 * never seen), looks them up outside the lock and claims again, and after LOOKUPS tries claims on the whole state.
 */
async function claimOnWorkingSet<T>(
  ctx: RunContext,
  mirror: SchedulerMirror,
  claim: (state: ProjectState) => T,
): Promise<T> {
  for (let lookup = 0; lookup < LOOKUPS; lookup++) {
    try {
      return await ctx.store.updateWorking(claim);
    } catch (error) {
      if (!(error instanceof MirrorBehind)) throw error;
      await mirror.prepare(await ctx.store.readWorking(), ctx.store);
    }
  }
  return ctx.store.update(claim);
}

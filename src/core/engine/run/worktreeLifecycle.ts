import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { errorMessage } from '../../errors';
import type { Run } from '../../model/run';
import type { ProjectState } from '../../store/projectState';
import { WORKTREES_DIR } from '../../store/runPaths';
import { removeWorktree } from '../../workspace/worktrees';
import type { RecordFn } from '../recordFn';
import type { RunContext } from '../runContext';

const DAY_MS = 24 * 60 * 60_000;
/** Ended runs whose worktree is kept for a while: their partial work is there to look at. */
const KEPT_STATES: readonly Run['state'][] = ['FAILED', 'CANCELED', 'STALE_RESULT'];

/** An integrated run: its change is on the target branch, its worktree is no longer needed. */
function integrated(run: Run): boolean {
  return run.state === 'SUCCEEDED' && run.integration !== undefined;
}

/**
 * Removes a run's worktree (and a review worktree left by a crash); true when one was there. A worktree outside this
 * repository's worktree folder (a run of another machine on a shared backend) is not this process's to remove.
 */
async function removeRunWorktrees(root: string, run: Run): Promise<boolean> {
  const ours = resolve(root, WORKTREES_DIR);
  let removed = false;
  for (const path of [run.worktree, `${run.worktree}.review`]) {
    if (dirname(resolve(path)) !== ours || !existsSync(path)) continue;
    await removeWorktree(root, path);
    removed = true;
  }
  return removed;
}

/**
 * After a run's end is recorded: the worktree of an integrated run is removed (under the worktree lock); its branch
 * and its diff (`runs/<run>/diff.patch`) stay. A failure is recorded and left to the next drain.
 */
export async function retireWorktree(ctx: RunContext, run: Run, record: RecordFn): Promise<void> {
  if (ctx.keepIntegratedWorktrees || !integrated(run)) return;
  try {
    if (await removeRunWorktrees(ctx.root, run))
      record('decision', {
        message: `worktree ${run.worktree} removed: the change is integrated; branch ${run.branch} and its diff stay`,
      });
  } catch (error) {
    record('decision', {
      message: `worktree ${run.worktree} not removed (the next drain tries again): ${errorMessage(error)}`,
    });
  }
}

/**
 * The worktrees a drain removes when it starts: those of integrated runs (left by a crash or an earlier failure to
 * remove), and those of failed, canceled and stale runs that ended `worktree.keepFailedDays` ago or longer. Running
 * runs and successful runs that were not integrated keep theirs.
 */
export function worktreesToPrune(state: ProjectState, now: number, keepIntegrated = false): Run[] {
  const keepMs = state.settings.worktree.keepFailedDays * DAY_MS;
  return state.runs.filter((run) => {
    if (integrated(run)) return !keepIntegrated;
    if (!KEPT_STATES.includes(run.state) || !run.endedAt) return false;
    const ended = Date.parse(run.endedAt);
    return Number.isFinite(ended) && now - ended >= keepMs;
  });
}

/** Removes the worktrees `worktreesToPrune` names; returns one line per removal or failure (for the trace). */
export async function pruneKeptWorktrees(ctx: RunContext, now = Date.now()): Promise<string[]> {
  const state = await statePruneNeeds(ctx);
  const lines: string[] = [];
  for (const run of worktreesToPrune(state, now, ctx.keepIntegratedWorktrees)) {
    try {
      if (!(await removeRunWorktrees(ctx.root, run))) continue;
      lines.push(
        integrated(run)
          ? `worktree of ${run.id} removed: integrated; branch ${run.branch} stays`
          : `worktree of ${run.id} removed: ${run.state} since ${run.endedAt} (worktree.keepFailedDays ${state.settings.worktree.keepFailedDays}); branch ${run.branch} and its diff stay`,
      );
    } catch (error) {
      lines.push(`worktree of ${run.id} not removed: ${errorMessage(error)}`);
    }
  }
  return lines;
}

/**
 * The state that names the runs of every worktree in this repository's worktree folder: the working set when it holds
 * them all (the usual case: only running runs have one), else the whole state.
 */
async function statePruneNeeds(ctx: RunContext): Promise<ProjectState> {
  const names = await readdir(resolve(ctx.root, WORKTREES_DIR)).catch(() => [] as string[]);
  const working = await ctx.store.readWorking();
  const runs = new Set(working.runs.map((r) => basename(r.worktree)));
  return names.every((name) => runs.has(name.replace(/\.review$/, ''))) ? working : ctx.store.read();
}

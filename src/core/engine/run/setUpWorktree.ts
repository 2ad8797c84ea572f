import { buildLaneEnv } from '../../lanes/laneEnv';
import { portBlockEnv } from '../../lanes/portBlock';
import type { Run } from '../../model/run';
import type { WorktreeSettings } from '../../store/orchestratorSettings';
import { formatMs } from '../../text/formatMs';
import { prepareWorktree } from '../../workspace/prepareWorktree';
import { findRun, type RunEnd } from '../../transitions/finishRun';
import type { RecordFn } from '../recordFn';
import type { RunContext } from '../runContext';

/**
 * Prepares a new run's worktree (worktree.copy, .link, .setup) before its
 * lane starts, its output in the run's log (`setup` lines, capped like lane
 * output) and its time on the run. Setup commands get the base environment
 * (no lane secrets), the run id and its port block. Returns the run's end
 * when setup failed, else undefined.
 */
export async function setUpWorktree(
  ctx: RunContext,
  run: Run,
  settings: WorktreeSettings,
  signal: AbortSignal,
  record: RecordFn,
): Promise<RunEnd | undefined> {
  if (!settings.copy.length && !settings.link.length && !settings.setup.length) return undefined;
  const env = buildLaneEnv(ctx.parentEnv, [], {
    SWITCHYARD_RUN_ID: run.id,
    SWITCHYARD_WORKSPACE: run.worktree,
    ...portBlockEnv(run.portSlot),
  });
  const outcome = await prepareWorktree({
    root: ctx.root,
    worktree: run.worktree,
    settings,
    env,
    signal,
    onLine: (stream, line) => record('setup', { event: { type: 'log', stream, line } }),
    onDecision: (message) => record('decision', { message }),
  });
  const { setup } = outcome;
  const cache = setup.cache === 'none' ? '' : setup.cache === 'hit' ? ', from the setup cache' : ', cache stored';
  const waited = setup.waitMs ? `, ${formatMs(setup.waitMs)} of it waiting for the cache` : '';
  record('decision', {
    message: `worktree setup ${outcome.ok ? 'done' : 'failed'} in ${formatMs(setup.durationMs)}${cache}${waited}`,
  });
  await ctx.store
    .update((s) => {
      findRun(s, run.id).setup = setup;
    })
    .catch(() => undefined);
  return outcome.ok ? undefined : { ok: false, code: outcome.code, reason: outcome.reason };
}

import { existsSync } from 'node:fs';
import { type Lease, leaseIsFree } from '../../lease/leaseFile';
import { killRecordedGroups } from '../../process/killRecordedGroups';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import { isStage } from '../../model/stages';
import { captureChange } from '../../workspace/worktrees';
import type { RecordFn } from '../recordFn';
import { salvageChange } from '../run/salvageChange';
import { finishRun, findRun } from '../../transitions/finishRun';
import { recordIntegration } from '../integration/integrateRun';
import { isAncestor } from '../integration/targetBranch';
import { recordRecoveredFigures } from '../run/recoveredFigures';
import { staleBecause } from '../../transitions/inputHash';
import type { RunContext } from '../runContext';
import { RunEventLog, eventsPath, writeDiff } from '../../store/runFiles';

export interface Recovery {
  /** One line per interrupted run that was failed (and may be retried as a new attempt). */
  decisions: string[];
  /** Runs this process took over to resume from their journals. */
  resumed: { task: Task; run: Run; previousOwner?: string }[];
}

/**
 * Finds runs whose owner is gone (lease expired, or a dead process on this
 * host), whatever stage their task is in. Runs of lanes that resume at call
 * level, whose worktree is still there, are taken over (under the store
 * lock, so exactly one process wins) to resume from their journal. A run
 * whose merge already landed is finished as done. The others fail as
 * `interrupted`: their task goes back to READY per the retry policy, and
 * what they left in the worktree is salvaged, so the next attempt starts
 * from it (the handoff; the new run's `resumeFrom` names it).
 */
export async function recoverInterruptedRuns(ctx: RunContext): Promise<Recovery> {
  const none: Recovery = { decisions: [], resumed: [] };
  // A RUNNING run's task is unfinished: both are in the working set.
  const foreign = (await ctx.store.readWorking()).runs.some((r) => r.state === 'RUNNING' && r.owner !== ctx.owner);
  if (!foreign) return none;
  // The effects come first, outside the transaction that decides: what the gone owners left running ends, and where
  // a move of the target branch they recorded got to is read. Only runs whose groups this process has ended are
  // decided below; one whose lease ran out meanwhile waits for the next round.
  const gone = await ctx.store.updateWorking((state, leases) => {
    const now = Date.now();
    const out = new Map<string, { groups: Lease['groups']; intent: Run['integrationIntent'] }>();
    for (const run of state.runs) {
      if (run.state !== 'RUNNING' || run.owner === ctx.owner) continue;
      const lease = leases.get(run.id);
      if (!leaseIsFree(lease, run.owner, run.startedAt, now, state.settings.leaseMs)) continue;
      out.set(run.id, { groups: lease?.groups, intent: run.integrationIntent });
    }
    return out;
  });
  if (!gone.size) return none;
  const landed = new Set<string>();
  for (const [runId, { groups, intent }] of gone) {
    killRecordedGroups(groups);
    if (intent && (await reached(ctx.root, intent.branch, intent.to))) landed.add(runId);
  }
  const now = Date.now();
  const recovery = await ctx.store.updateWorking(
    (state, leases): Recovery & { logs: { runId: string; message: string; mergedAt?: string }[] } => {
      const out: Recovery & { logs: { runId: string; message: string; mergedAt?: string }[] } = {
        decisions: [],
        resumed: [],
        logs: [],
      };
      for (const run of state.runs) {
        if (run.state !== 'RUNNING' || run.owner === ctx.owner || !gone.has(run.id)) continue;
        const lease = leases.get(run.id);
        if (!leaseIsFree(lease, run.owner, run.startedAt, now, state.settings.leaseMs)) continue;
        const task = state.tasks.find((t) => t.id === run.taskId);
        if (!task) continue;
        const intent = run.integrationIntent;
        if (intent) {
          // The owner stopped between recording a move of the target branch and confirming it: the branch says which.
          delete run.integrationIntent;
          if (landed.has(run.id)) recordIntegration(task, run, intent.branch, intent.to, intent.at);
        }
        const superseded = staleBecause(task, run) !== undefined;
        if (!superseded && !isStage(task.state) && task.state !== 'CHANGES_REQUESTED') continue;
        if (!superseded && task.integration?.runId === run.id) {
          const message = finishRun(
            state,
            ctx.registry,
            run.id,
            { ok: true, summary: 'merged before its owner stopped' },
            { rules: ctx.errorRules?.(), now, notes: out.decisions },
          );
          out.decisions.push(message);
          out.logs.push({ runId: run.id, message, mergedAt: task.integration.at });
          continue;
        }
        const lane = ctx.registry.get(run.lane);
        // Taken over: a pull request open and waiting for CI (this process carries on waiting: no new push, no second
        // PR), or a lane that resumes at call level whose worktree is still there.
        const awaitingCi = task.state === 'AWAITING_CI' && run.pullRequest?.state === 'open';
        const resumable =
          isStage(task.state) && lane?.manifest.capabilities.resume === 'call' && existsSync(run.worktree);
        if (!superseded && (awaitingCi || resumable)) {
          const previousOwner = lease?.owner ?? run.owner;
          run.owner = ctx.owner;
          run.resumes = (run.resumes ?? 0) + 1;
          leases.take(run.id, ctx.owner, state.settings.leaseMs);
          out.resumed.push({ task: structuredClone(task), run: structuredClone(run), previousOwner });
          continue;
        }
        const message = finishRun(
          state,
          ctx.registry,
          run.id,
          {
            ok: false,
            code: 'interrupted',
            reason: `the process that owned run ${run.id} (${run.owner}) stopped before the run finished${lease ? ` (its lease expired ${lease.expiresAt})` : ''}`,
          },
          { rules: ctx.errorRules?.(), now },
        );
        out.decisions.push(message);
        out.logs.push({ runId: run.id, message });
      }
      return out;
    },
  );
  for (const { runId, message, mergedAt } of recovery.logs) {
    // Read before this process adds to the run's log: the figures end where the dead owner's work did.
    const figures = await recordRecoveredFigures(ctx, runId, mergedAt !== undefined, mergedAt).catch(
      (error) => `could not read the figures of ${runId}: ${(error as Error).message}`,
    );
    const log = new RunEventLog(eventsPath(ctx.root, runId));
    const record: RecordFn = (type, body) => log.append(type, body);
    record('decision', { message });
    record('decision', { message: figures });
    ctx.trace.append({ type: 'decision', kind: 'recovered', run: runId, message });
    // A merged run's change is on the target branch: its diff is kept, nothing is salvaged.
    await salvageInterrupted(ctx, runId, record, mergedAt === undefined);
    await log.flush();
  }
  if (recovery.decisions.length || recovery.resumed.length) {
    ctx.stageGate.notify();
    ctx.onChange?.();
  }
  return { decisions: recovery.decisions, resumed: recovery.resumed };
}

/** Whether `commit` is on `branch` (its tip or an ancestor of it); false when there is no such branch. */
function reached(root: string, branch: string, commit: string): Promise<boolean> {
  return isAncestor(root, commit, `refs/heads/${branch}`).catch(() => false);
}

/**
 * Keeps what an interrupted run left in its worktree: committed on its branch, named as salvage (unless `salvage` is
 * false), its diff saved.
 */
async function salvageInterrupted(ctx: RunContext, runId: string, record: RecordFn, salvage = true): Promise<void> {
  const run = (await ctx.store.read()).runs.find((r) => r.id === runId);
  if (!run || !existsSync(run.worktree)) return;
  try {
    const change = await captureChange(
      run.worktree,
      run.baseCommit,
      `switchyard: salvage of interrupted run ${run.id}`,
    );
    await writeDiff(ctx.root, run.id, change.diff);
    const salvaged = salvage && change.stat.files > 0 ? await salvageChange(ctx, run.id, change, record) : undefined;
    await ctx.store.update((s) =>
      Object.assign(findRun(s, run.id), {
        headCommit: change.headCommit,
        diffStat: change.stat,
        ...(salvaged ? { salvage: salvaged } : {}),
      }),
    );
  } catch (error) {
    record('decision', { message: `could not salvage interrupted run ${run.id}: ${(error as Error).message}` });
  }
}

import { errorMessage, isSwitchyardError } from '../../errors';
import { resumeRunJournal, startRunJournal, type RunJournal } from '../../journal/openRunJournal';
import { RunLease } from '../../lease/runLease';
import { RunGroups, withRunGroups } from '../../process/runGroups';
import { addResumeCounts } from '../../journal/resumeCounts';
import { Redactor } from '../../secrets/redactor';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import { isStage } from '../../model/stages';
import { finishRun, type RunEnd } from '../../transitions/finishRun';
import type { RecordFn } from '../recordFn';
import { staleBecause } from '../../transitions/inputHash';
import type { RunContext } from '../runContext';
import { whenStale } from './runCurrency';
import type { RunPlan } from '../runPlan';
import { recoveredFigures } from './recoveredFigures';
import { RunEventLog, eventsPath, readRunLog } from '../../store/runFiles';
import { runAttempt } from './runAttempt';
import { setTaskState } from '../../transitions/setTaskState';
import { retireWorktree } from './worktreeLifecycle';
import { lastWithId } from '../../store/lastWithId';

export interface ResumeInfo {
  previousOwner?: string;
}

/**
 * Executes one claimed run end to end: worktree, journal, lease, lane, diff,
 * then the stages (verification, review, integration, each under its WIP
 * limit), and the final record in the store. With `resume`, the run
 * continues in its existing worktree from its journal. Never throws for what
 * a lane does; `stop` aborts the run (queue stopped). `why` says why the
 * scheduler picked it (the first line of the run's log).
 */
export async function executeRun(
  ctx: RunContext,
  task: Task,
  run: Run,
  stop: AbortSignal,
  plan: RunPlan,
  resume?: ResumeInfo,
  why?: string,
  handBack?: AbortSignal,
): Promise<Run> {
  const { settings } = plan;
  const log = new RunEventLog(eventsPath(ctx.root, run.id), settings.runOutput);
  // Every output of the run passes the redactor: secrets are added to it as they are resolved.
  const redactor = new Redactor();
  const record: RecordFn = (type, body) => {
    const clean = redactor.redactValue(body);
    log.append(type, clean);
    ctx.onRunEvent?.(run.id, type, clean);
  };
  const retried = run.retryReason ? ` (retry after: ${run.retryReason})` : '';
  const picked = why ? `; picked now: ${why}` : '';
  record('decision', {
    message: resume
      ? `run ${run.id} resumed by ${ctx.owner} from its journal (previous owner ${resume.previousOwner ?? 'unknown'} is gone)`
      : `run ${run.id} started: task ${task.id} on lane ${run.lane}, attempt ${run.attempt}${retried}${picked}`,
  });

  const cancel = new AbortController();
  const onStop = (): void => cancel.abort();
  stop.addEventListener('abort', onStop, { once: true });
  let handedBack = false;
  let journal: RunJournal | undefined;
  const onHandBack = (): void => {
    handedBack = true;
    // Sealed first, so the aborted call records no failure the resuming process would replay.
    journal?.calls.seal();
    cancel.abort();
  };
  handBack?.addEventListener('abort', onHandBack, { once: true });
  let lostTo: string | undefined;
  const lease = new RunLease(ctx.leases, run.id, ctx.owner, settings.leaseMs, (by) => {
    lostTo = by;
    cancel.abort();
  });
  await lease.start(resume !== undefined);
  // Canceled (or its input changed) in this process or another: the run stops; its end is recorded as stale.
  const unwatch = whenStale(ctx, task.id, run, () => cancel.abort());

  let end: RunEnd;
  try {
    const redact = (line: string): string => redactor.redact(line);
    journal = resume
      ? await resumeRunJournal(
          ctx.journals,
          run.id,
          settings.journalDurability,
          ctx.owner,
          resume.previousOwner,
          redact,
        )
      : await startRunJournal(
          ctx.journals,
          run.id,
          settings.journalDurability,
          { lane: run.lane, attempt: run.attempt, owner: ctx.owner },
          redact,
        );
    if (handedBack) journal.calls.seal();
    for (const warning of journal.warnings) record('decision', { message: `journal warning: ${warning}` });
    // Every process group the run starts is recorded with its lease while it lives, so a process taking the run over
    // can end it.
    const groups = new RunGroups((records) => void lease.recordGroups(records));
    const resuming = resume !== undefined;
    const attempt = { task, run, plan, signal: cancel.signal, record, journal, resuming, redactor };
    end = await withRunGroups(groups, () => runAttempt(ctx, attempt)).finally(() => groups.stopAll());
  } catch (error) {
    end =
      isSwitchyardError(error, 'journal-corrupt') || isSwitchyardError(error, 'journal-missing')
        ? { ok: false, code: error.code as 'journal-corrupt' | 'journal-missing', reason: error.message }
        : { ok: false, code: 'workspace-error', reason: errorMessage(error) };
  } finally {
    unwatch();
    stop.removeEventListener('abort', onStop);
    handBack?.removeEventListener('abort', onHandBack);
    await journal?.writer.close().catch(() => undefined);
  }
  // Its journal lost or damaged: what the lane reported spending (its usage events) still counts.
  if (!journal && resume) {
    const { usage } = recoveredFigures(run, [], await readRunLog(eventsPath(ctx.root, run.id)), false);
    if (usage) end = { ...end, usage };
  }
  // Every resume of the run counts, not only this one.
  if (journal && resume) end = { ...end, resumeCounts: addResumeCounts(journal.earlierResumes, journal.calls.counts) };
  end = redactor.redactValue(end);

  if (!lostTo && !handedBack && stop.aborted && (await leaveCiWait(ctx, run, record))) {
    await lease.handBack();
    await log.flush();
    ctx.stageGate?.notify();
    return (await ctx.store.readWorking()).runs.find((r) => r.id === run.id) ?? run;
  }
  if (lostTo || handedBack) {
    // Another process records the end: the one that took the run over, or (shutdown) the one that takes it once its
    // lease expired now.
    if (lostTo)
      record('decision', { message: `lease lost to ${lostTo}: this process stopped working on run ${run.id}` });
    else {
      record('decision', {
        message: `run ${run.id} handed back by ${ctx.owner} (shutting down): its lease expired now, so another process takes it over`,
      });
      await lease.handBack();
    }
    await log.flush();
    return (await ctx.store.readWorking()).runs.find((r) => r.id === run.id) ?? run;
  }
  // The closure may run again if the backend retries the transaction: it only changes the state; logging happens after.
  const outcome: { run: Run; takenBy?: string; message?: string; notes?: string[] } = await ctx.store
    .updateWorking((state): { run: Run; takenBy?: string; message?: string; notes?: string[] } => {
      const stored = lastWithId(state.runs, run.id)!;
      // Taken over since (this process missed the lease renewal that would have told it): the new owner records the
      // end.
      if (stored.owner && stored.owner !== ctx.owner) return { run: stored, takenBy: stored.owner };
      const notes: string[] = [];
      const message = finishRun(state, ctx.registry, run.id, end, { rules: ctx.errorRules?.(), notes });
      return { run: lastWithId(state.runs, run.id)!, message, notes };
    })
    .catch(async (error) => ({ run: await recordInternalError(ctx, run, error, record) }));
  if (outcome.takenBy) {
    record('decision', {
      message: `run ${run.id} was taken over by ${outcome.takenBy}; this process's result is not recorded`,
    });
    await log.flush();
    return outcome.run;
  }
  if (outcome.message) {
    record('decision', { message: outcome.message });
    ctx.trace.append({ type: 'decision', kind: 'finish', task: run.taskId, run: run.id, message: outcome.message });
  }
  // The lane's breaker news: its own line, not the task's.
  for (const note of outcome.notes ?? []) {
    record('decision', { message: note });
    ctx.trace.append({ type: 'decision', kind: 'breaker', task: run.taskId, run: run.id, message: note });
  }
  const finished = outcome.run;
  // The task's slot is free from here (the store says so); the worktree's removal below holds no stage.
  ctx.stageGate?.left(run.taskId);
  // Released only once the run's end is recorded, so nobody takes over a finished run.
  await lease.release();
  await retireWorktree(ctx, finished, record);
  await log.flush();
  ctx.onChange?.();
  return finished;
}

/**
 * The queue stopped while the run's pull request waits for CI: the wait is not a failure, and the PR stays open. The
 * run is left RUNNING without an owner (its task stays AWAITING_CI), so the next drain, in this process or another,
 * takes it over and carries on waiting. False when the task is not waiting for CI.
 */
async function leaveCiWait(ctx: RunContext, run: Run, record: RecordFn): Promise<boolean> {
  const left = await ctx.store
    .update((state) => {
      const r = state.runs.find((x) => x.id === run.id);
      const t = state.tasks.find((x) => x.id === run.taskId);
      if (!r || !t || r.state !== 'RUNNING' || r.owner !== ctx.owner || staleBecause(t, r)) return undefined;
      if (t.state !== 'AWAITING_CI' || r.pullRequest?.state !== 'open') return undefined;
      delete r.owner;
      return r.pullRequest.number;
    })
    .catch(() => undefined);
  if (left === undefined) return false;
  record('decision', {
    message: `queue stopped while pull request #${left} waits for CI: the pull request stays open and the next drain carries on waiting`,
  });
  return true;
}

/**
 * Last resort when the run's end cannot be recorded normally: the run fails with the internal error, the queue goes on.
 */
async function recordInternalError(ctx: RunContext, run: Run, error: unknown, record: RecordFn): Promise<Run> {
  const reason = `internal error while finishing run ${run.id}: ${errorMessage(error)}`;
  record('decision', { message: reason });
  return ctx.store
    .update((state) => {
      const stored = state.runs.find((r) => r.id === run.id)!;
      if (stored.state === 'RUNNING')
        Object.assign(stored, {
          state: 'FAILED',
          failureCode: 'lane-crash',
          failureReason: reason,
          endedAt: new Date().toISOString(),
        });
      const task = state.tasks.find((t) => t.id === run.taskId);
      if (task && (isStage(task.state) || task.state === 'CHANGES_REQUESTED')) {
        setTaskState(task, 'FAILED');
        task.failureReason = reason;
      }
      return stored;
    })
    .catch(() => ({ ...run, state: 'FAILED' as const, failureReason: reason }));
}

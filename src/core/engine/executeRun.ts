import { errorMessage, isSwitchyardError } from '../errors';
import { journalPath, leasePath } from '../journal/journalFiles';
import { resumeRunJournal, startRunJournal, type RunJournal } from '../journal/openRunJournal';
import { RunLease } from '../journal/runLease';
import { Redactor } from '../secrets/redactor';
import { resolveLaneSecrets } from '../secrets/resolveLaneSecrets';
import { buildLaneEnv } from '../lanes/laneEnv';
import { runLane, type LaneOutcome } from '../lanes/runLane';
import type { Run } from '../model/run';
import type { Task } from '../model/task';
import { captureChange, createWorktree, markSalvage, type CapturedChange } from '../workspace/worktrees';
import { finishRun, findRun, type RunEnd } from './finishRun';
import type { RunContext } from './runContext';
import { RunEventLog, eventsPath, writeDiff } from './runFiles';
import { findTask, setTaskState } from './taskCommands';
import { verifyAcceptance } from './verifyAcceptance';

export interface ResumeInfo {
  previousOwner?: string;
}

/**
 * Executes one claimed run end to end: worktree, journal, lease, lane, diff,
 * acceptance command, and the final record in the store. With `resume`, the
 * run continues in its existing worktree from its journal. Never throws for
 * what a lane does; `stop` aborts the run (queue stopped).
 */
export async function executeRun(ctx: RunContext, task: Task, run: Run, stop: AbortSignal, resume?: ResumeInfo): Promise<Run> {
  const log = new RunEventLog(eventsPath(ctx.root, run.id));
  // Every output of the run passes the redactor: secrets are added to it as they are resolved.
  const redactor = new Redactor();
  const record = (type: string, body: Record<string, unknown>): void => {
    const clean = redactor.redactValue(body);
    log.append(type, clean);
    ctx.onRunEvent?.(run.id, type, clean);
  };
  record('decision', {
    message: resume
      ? `run ${run.id} resumed by ${ctx.owner} from its journal (previous owner ${resume.previousOwner ?? 'unknown'} is gone)`
      : `run ${run.id} started: task ${task.id} on lane ${run.lane}, attempt ${run.attempt}${run.retryReason ? ` (retry after: ${run.retryReason})` : ''}`,
  });

  const cancel = new AbortController();
  const onStop = (): void => cancel.abort();
  stop.addEventListener('abort', onStop, { once: true });
  let lostTo: string | undefined;
  const settings = (await ctx.store.read()).settings;
  const lease = new RunLease(leasePath(ctx.root, run.id), ctx.owner, settings.leaseMs, (fn) => ctx.store.withLock(fn), (by) => {
    lostTo = by;
    cancel.abort();
  });
  await lease.start(resume !== undefined);
  const poll = setInterval(() => {
    ctx.store.read().then(
      (state) => {
        const current = state.tasks.find((t) => t.id === task.id);
        if (!current || current.generation !== run.generation) cancel.abort();
      },
      () => undefined,
    );
  }, ctx.cancelPollMs);

  let end: RunEnd;
  let journal: RunJournal | undefined;
  try {
    const file = journalPath(ctx.root, run.id);
    const redact = (line: string): string => redactor.redact(line);
    journal = resume
      ? await resumeRunJournal(file, run.id, settings.journalDurability, ctx.owner, resume.previousOwner, redact)
      : await startRunJournal(file, run.id, settings.journalDurability, { lane: run.lane, attempt: run.attempt, owner: ctx.owner }, redact);
    for (const warning of journal.warnings) record('decision', { message: `journal warning: ${warning}` });
    end = await attempt(ctx, task, run, cancel.signal, record, journal, resume !== undefined, redactor);
  } catch (error) {
    end = isSwitchyardError(error, 'journal-corrupt')
      ? { ok: false, code: 'journal-corrupt', reason: error.message }
      : { ok: false, code: 'workspace-error', reason: errorMessage(error) };
  } finally {
    clearInterval(poll);
    stop.removeEventListener('abort', onStop);
    await journal?.writer.close().catch(() => undefined);
  }
  if (journal && resume) end = { ...end, resumeCounts: journal.calls.counts };
  end = redactor.redactValue(end);

  if (lostTo) {
    // Another process owns the run now; it records the end, not this one.
    record('decision', { message: `lease lost to ${lostTo}: this process stopped working on run ${run.id}` });
    await log.flush();
    return (await ctx.store.read()).runs.find((r) => r.id === run.id) ?? run;
  }
  const finished = await ctx.store
    .update((state) => {
      record('decision', { message: finishRun(state, ctx.registry, run.id, end) });
      return state.runs.find((r) => r.id === run.id)!;
    })
    .catch((error) => recordInternalError(ctx, run, error, record));
  // Released only once the run's end is recorded, so nobody takes over a finished run.
  await lease.release();
  await log.flush();
  ctx.onChange?.();
  return finished;
}

async function attempt(
  ctx: RunContext,
  task: Task,
  run: Run,
  signal: AbortSignal,
  record: (type: string, body: Record<string, unknown>) => void,
  journal: RunJournal,
  resuming: boolean,
  redactor: Redactor,
): Promise<RunEnd> {
  const lane = ctx.registry.get(run.lane);
  if (!lane) {
    const known = ctx.registry.list().map((l) => l.manifest.id);
    return { ok: false, code: 'lane-not-registered', reason: `lane "${run.lane}" is not registered; registered lanes: ${known.join(', ') || '(none)'}` };
  }
  const state = await ctx.store.read();
  const settings = { ...(state.settings.laneSettings[run.lane] ?? {}), ...(ctx.laneSettingsOverride?.(run.lane) ?? {}) };
  const timeoutMs = typeof settings.timeoutMs === 'number' && settings.timeoutMs > 0 ? settings.timeoutMs : lane.manifest.defaultTimeoutMs;

  const resolved = await resolveLaneSecrets(lane.manifest, ctx.secrets, redactor);
  if (!resolved.ok) return { ok: false, code: resolved.code, reason: resolved.reason };
  if (!resuming) {
    const start = run.resumeFrom?.commit ?? run.baseCommit;
    await createWorktree(ctx.root, run.worktree, run.branch, start);
    record('decision', {
      message: `worktree ${run.worktree} on branch ${run.branch} at ${start.slice(0, 12)}${run.resumeFrom?.salvageBranch ? ` (the salvaged work of ${run.resumeFrom.runId})` : ''}`,
    });
  }

  const env = buildLaneEnv(ctx.parentEnv, lane.manifest.envAllowlist, {
    SWITCHYARD_TASK_ID: task.id,
    SWITCHYARD_TASK_TITLE: task.spec.title,
    SWITCHYARD_TASK_SPEC: task.spec.spec,
    SWITCHYARD_TASK_FILES: task.spec.files.join('\n'),
    SWITCHYARD_RUN_ID: run.id,
    SWITCHYARD_ATTEMPT: String(run.attempt),
    SWITCHYARD_WORKSPACE: run.worktree,
  });
  const outcome: LaneOutcome = await runLane(
    lane,
    {
      task: { id: task.id, title: task.spec.title, spec: task.spec.spec, files: task.spec.files, acceptance: task.spec.acceptance },
      workspaceDir: run.worktree,
      env,
      attempt: { runId: run.id, attempt: run.attempt, parentRunId: run.parentRunId, retryReason: run.retryReason },
      settings,
      secrets: resolved.secrets,
      ...(run.resumeFrom ? { resume: { runId: run.resumeFrom.runId, sessionId: run.resumeFrom.sessionId, salvageBranch: run.resumeFrom.salvageBranch } } : {}),
      call: (spec, fn) => journal.calls.call(spec, fn),
    },
    {
      timeoutMs,
      cancelSignal: signal,
      onEvent: (event) => {
        record('lane', { event });
        // Kept at once, so an attempt after a crash can still resume the lane's own session.
        if (event.type === 'session') void ctx.store.update((s) => { findRun(s, run.id).sessionId = event.sessionId; }).catch(() => undefined);
      },
    },
  );

  // Whatever the lane left on disk is kept on the run's branch, success or not.
  const change = await captureChange(run.worktree, run.baseCommit, `switchyard: ${task.spec.title} (${run.id})`).catch((error) => {
    record('decision', { message: `could not capture the worktree diff: ${errorMessage(error)}` });
    return undefined;
  });
  if (change) await writeDiff(ctx.root, run.id, change.diff);
  const journalUsage = journal.calls.totalUsage();
  const usage = journalUsage.inputTokens || journalUsage.outputTokens || journalUsage.costUsd ? journalUsage : outcome.usage;
  const captured = { headCommit: change?.headCommit, diffStat: change?.stat, usage, sessionId: outcome.sessionId };
  if (!outcome.ok) {
    const salvage = change && change.stat.files > 0 ? await salvageChange(ctx, run.id, change, record) : undefined;
    return { ...captured, salvage, ok: false, code: outcome.code, reason: outcome.reason };
  }

  const moved = await ctx.store.update((s) => {
    const current = findTask(s, task.id);
    if (current.generation !== run.generation) return false;
    if (current.state === 'VERIFYING' && resuming) return true;
    if (current.state !== 'RUNNING') return false;
    setTaskState(current, 'VERIFYING');
    return true;
  });
  ctx.onChange?.();
  // Canceled meanwhile: the result is kept, and finishRun marks it STALE_RESULT.
  if (!moved) return { ...captured, ok: true, summary: outcome.summary };
  if (!task.spec.acceptance) {
    record('decision', { message: 'no acceptance command: verification passes' });
    return { ...captured, ok: true, summary: outcome.summary };
  }
  record('decision', { message: `verifying with \`${task.spec.acceptance}\`` });
  const verdict = await verifyAcceptance(task.spec.acceptance, run.worktree, env, ctx.verifyTimeoutMs(), signal);
  record('verify', { ok: verdict.ok, output: verdict.output.slice(-4_000) });
  if (!verdict.ok) return { ...captured, ok: false, code: signal.aborted ? 'canceled' : 'verify-failed', reason: verdict.reason };
  return { ...captured, ok: true, summary: outcome.summary };
}

/** Last resort when the run's end cannot be recorded normally: the run fails with the internal error, the queue goes on. */
async function recordInternalError(
  ctx: RunContext,
  run: Run,
  error: unknown,
  record: (type: string, body: Record<string, unknown>) => void,
): Promise<Run> {
  const reason = `internal error while finishing run ${run.id}: ${errorMessage(error)}`;
  record('decision', { message: reason });
  return ctx.store
    .update((state) => {
      const stored = state.runs.find((r) => r.id === run.id)!;
      if (stored.state === 'RUNNING') Object.assign(stored, { state: 'FAILED', failureCode: 'lane-crash', failureReason: reason, endedAt: new Date().toISOString() });
      const task = state.tasks.find((t) => t.id === run.taskId);
      if (task && (task.state === 'RUNNING' || task.state === 'VERIFYING')) {
        setTaskState(task, 'FAILED');
        task.failureReason = reason;
      }
      return stored;
    })
    .catch(() => ({ ...run, state: 'FAILED' as const, failureReason: reason }));
}

/** Names a failed run's partial work `switchyard/salvage/<run>`, so the next attempt starts from it and an operator can promote it. */
export async function salvageChange(
  ctx: RunContext,
  runId: string,
  change: CapturedChange,
  record: (type: string, body: Record<string, unknown>) => void,
): Promise<Run['salvage']> {
  try {
    const branch = await markSalvage(ctx.root, runId, change.headCommit);
    record('decision', { message: `salvaged ${change.stat.files} changed file(s) on ${branch}; the next attempt starts from it` });
    return { branch, commit: change.headCommit, files: change.stat.files };
  } catch (error) {
    record('decision', { message: `could not salvage the partial work: ${errorMessage(error)}` });
    return undefined;
  }
}

import { errorMessage } from '../../errors';
import type { RunJournal } from '../../journal/openRunJournal';
import { buildLaneEnv } from '../../lanes/laneEnv';
import { runLane, type LaneOutcome } from '../../lanes/runLane';
import { taskSpecEnv, writeTaskSpecFile } from '../../lanes/taskSpecEnv';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import type { Redactor } from '../../secrets/redactor';
import { addEnvCredentials } from '../../secrets/credentialEnv';
import { resolveLaneSecrets } from '../../secrets/resolveLaneSecrets';
import { modelKeyRefusal } from './modelKeyBinding';
import { endRunGroups } from '../../process/runGroups';
import { captureChange, createWorktree } from '../../workspace/worktrees';
import { portBlockEnv } from '../../lanes/portBlock';
import { copiedFileSecrets } from '../../workspace/copiedFileSecrets';
import { setUpWorktree } from './setUpWorktree';
import type { RecordFn } from '../recordFn';
import { salvageChange } from './salvageChange';
import { findRun, type RunEnd } from '../../transitions/finishRun';
import { installRunHook } from './installRunHook';
import type { RunContext } from '../runContext';
import type { RunPlan } from '../runPlan';
import { runDir, writeDiff } from '../../store/runFiles';
import { runStages } from './runStages';
import { resumePullRequestWait } from '../integration/pullRequestFlow';
import type { PullRequestOutcome } from '../integration/awaitPullRequest';
import { afterShared } from '../../store/sharedPrefix';

export interface AttemptInput {
  task: Task;
  run: Run;
  /** The run's settings, fixed at its claim. */
  plan: RunPlan;
  signal: AbortSignal;
  record: RecordFn;
  journal: RunJournal;
  resuming: boolean;
  redactor: Redactor;
}

/**
 * One attempt: the worktree (at the run's start commit), the pre-push guard
 * in it, the lane, the captured change (salvaged when the lane failed), then
 * the downstream stages when the lane succeeded.
 */
export async function runAttempt(ctx: RunContext, input: AttemptInput): Promise<RunEnd> {
  const { task, run, plan, signal, record, journal, resuming, redactor } = input;
  // Taken over while its pull request waited for CI: the lane's work is done and pushed; only the wait goes on.
  if (resuming && task.state === 'AWAITING_CI' && run.pullRequest?.state === 'open')
    return awaitingCiEnd(
      await resumePullRequestWait(ctx, {
        task,
        run,
        plan,
        signal,
        redactor,
        record: (message) => record('decision', { message }),
      }),
      run,
    );
  const lane = ctx.registry.get(run.lane);
  if (!lane) {
    const known = ctx.registry.list().map((l) => l.manifest.id);
    return {
      ok: false,
      code: 'lane-not-registered',
      reason: `lane "${run.lane}" is not registered; registered lanes: ${known.join(', ') || '(none)'}`,
    };
  }
  // The task runs, so it and its runs are in the working set.
  const state = await ctx.store.readWorking();
  const { settings } = plan.lane(run.lane);
  const timeoutMs =
    typeof settings.timeoutMs === 'number' && settings.timeoutMs > 0
      ? settings.timeoutMs
      : lane.manifest.defaultTimeoutMs;
  // The task runs, so it and its runs are in the working set, after the history's shared runs.
  const taskCostUsd = afterShared(state.runs)
    .filter((r) => r.taskId === task.id && r.id !== run.id)
    .reduce((sum, r) => sum + (r.usage?.costUsd ?? 0), 0);

  const refusal = await modelKeyRefusal(ctx, lane.manifest, settings);
  if (refusal) return { ok: false, code: 'lane-misconfigured', reason: refusal };
  const resolved = await resolveLaneSecrets(lane.manifest, ctx.secrets, redactor);
  if (!resolved.ok) return { ok: false, code: resolved.code, reason: resolved.reason };
  // What worktree.copy puts into the worktree (an .env, a credentials file) is a secret of the run from before setup
  // runs, on a resumed attempt too: redacted everywhere, and a change holding it is blocked.
  for (const secret of await copiedFileSecrets(ctx.root, plan.settings.worktree.copy))
    redactor.add(secret.name, secret.value);
  if (!resuming) {
    const start = run.resumeFrom?.commit ?? run.baseCommit;
    await createWorktree(ctx.root, run.worktree, run.branch, start);
    const from = startedFrom(run, task);
    record('decision', { message: `worktree ${run.worktree} on branch ${run.branch} at ${start.slice(0, 12)}${from}` });
    await installRunHook(ctx, run.worktree, record);
    const setUp = await setUpWorktree(ctx, run, plan.settings.worktree, signal, record);
    if (setUp) return setUp;
  }

  // The whole spec is in a file; an environment variable holds it only up to ENV_VALUE_MAX_BYTES.
  const specFile = await writeTaskSpecFile(runDir(ctx.root, run.id), 'spec.md', task.spec.spec);
  const env = buildLaneEnv(ctx.parentEnv, lane.manifest.envAllowlist, {
    SWITCHYARD_TASK_ID: task.id,
    SWITCHYARD_TASK_TITLE: task.spec.title,
    ...taskSpecEnv(task.spec.spec, specFile),
    SWITCHYARD_TASK_FILES: task.spec.files.join('\n'),
    SWITCHYARD_RUN_ID: run.id,
    SWITCHYARD_ATTEMPT: String(run.attempt),
    SWITCHYARD_WORKSPACE: run.worktree,
    ...portBlockEnv(run.portSlot),
    ...(run.feedback ? { SWITCHYARD_FEEDBACK: run.feedback } : {}),
  });
  // Credentials the lane gets through its environment or its env/passEnv settings are secrets of the run, like its
  // resolved ones.
  addEnvCredentials(redactor, env, settings, [ctx.parentEnv, process.env]);
  const outcome: LaneOutcome = await runLane(
    lane,
    {
      task: {
        id: task.id,
        title: task.spec.title,
        spec: task.spec.spec,
        files: task.spec.files,
        acceptance: task.spec.acceptance,
      },
      workspaceDir: run.worktree,
      env,
      attempt: {
        runId: run.id,
        attempt: run.attempt,
        parentRunId: run.parentRunId,
        retryReason: run.retryReason,
        taskCostUsd,
      },
      ...(run.feedback ? { feedback: run.feedback } : {}),
      mode: 'work',
      settings,
      secrets: resolved.secrets,
      ...(run.resumeFrom
        ? {
            resume: {
              runId: run.resumeFrom.runId,
              sessionId: run.resumeFrom.sessionId,
              sessionCwd: run.resumeFrom.sessionCwd,
              salvageBranch: run.resumeFrom.salvageBranch,
              start: run.resumeFrom.start ?? (run.resumeFrom.commit ? 'earlier-work' : 'base'),
              workBranch: run.resumeFrom.workBranch ?? run.resumeFrom.salvageBranch,
            },
          }
        : {}),
      call: (spec, fn) => journal.calls.call(spec, fn),
    },
    {
      timeoutMs,
      cancelSignal: signal,
      onEvent: (event) => {
        record('lane', { event });
        // Kept at once, so an attempt after a crash can still resume the lane's own session.
        if (event.type === 'session')
          void ctx.store
            .updateWorking((s) => {
              findRun(s, run.id).sessionId = event.sessionId;
            })
            .catch(() => undefined);
      },
    },
  );

  // Whatever the lane left running ends before its change is captured, so nothing changes the worktree after the
  // commit.
  await endRunGroups();
  // Whatever the lane left on disk is kept on the run's branch, success or not.
  const provided = [...plan.settings.worktree.copy, ...plan.settings.worktree.link];
  const message = `switchyard: ${task.spec.title} (${run.id})`;
  const change = await captureChange(run.worktree, run.baseCommit, message, provided).catch((error) => {
    record('decision', { message: `could not capture the worktree diff: ${errorMessage(error)}` });
    return undefined;
  });
  // The diff is redacted before it is stored or shown (diff.patch, the review's spec); the commit keeps the content,
  // for the guards to judge.
  const patch = change?.diff;
  if (change) change.diff = redactor.redact(change.diff);
  if (change) await writeDiff(ctx.root, run.id, change.diff);
  const journalUsage = journal.calls.totalUsage();
  const usage =
    journalUsage.inputTokens || journalUsage.outputTokens || journalUsage.costUsd ? journalUsage : outcome.usage;
  const captured = { headCommit: change?.headCommit, diffStat: change?.stat, usage, sessionId: outcome.sessionId };
  if (!outcome.ok) {
    const salvage = change && change.stat.files > 0 ? await salvageChange(ctx, run.id, change, record) : undefined;
    return { ...captured, salvage, ok: false, code: outcome.code, reason: outcome.reason };
  }
  if (!change)
    return {
      ...captured,
      ok: false,
      code: 'workspace-error',
      reason: 'the lane succeeded but its change could not be captured',
      laneOk: true,
    };
  return runStages(ctx, {
    task,
    run,
    plan,
    signal,
    record,
    env,
    change,
    captured: { ...captured, summary: outcome.summary },
    resuming,
    redactor,
    patch,
  });
}

function awaitingCiEnd(outcome: PullRequestOutcome, run: Run): RunEnd {
  const kept = { headCommit: run.headCommit, laneOk: true };
  if (outcome.ok === true || outcome.ok === 'stale') return { ...kept, ok: true };
  return { ...kept, ok: false, code: outcome.code, reason: outcome.reason, feedback: outcome.feedback };
}

/** What the worktree's start commit is, for the run's log (the decision newRun's startPoint made). */
function startedFrom(run: Run, task: Task): string {
  const from = run.resumeFrom;
  if (from?.salvageBranch && from.commit) return ` (the salvaged work of ${from.runId})`;
  if (from?.commit) return ` (the commit of ${from.runId}: this attempt fixes it)`;
  const context = from?.workBranch ? `; the work of ${from.runId} (${from.workBranch}) is context, not in it` : '';
  if (from?.start === 'target-head') return ` (the target branch's current head${context})`;
  if (from?.start === 'base') return ` (the task's base${context})`;
  if (run.baseCommit !== task.baseCommit) return ' (the target branch, with the work of its dependencies)';
  return '';
}

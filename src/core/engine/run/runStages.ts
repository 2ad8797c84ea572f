import { formatGuardEvent, guardRunDiff } from '../../guards';
import type { Run } from '../../model/run';
import { STAGES, type Stage } from '../../model/stages';
import type { TaskState } from '../../model/taskStates';
import type { Task } from '../../model/task';
import type { Redactor } from '../../secrets/redactor';
import type { CapturedChange } from '../../workspace/worktrees';
import { missingIgnoredNote } from '../../workspace/ignoredEntries';
import type { RecordFn } from '../recordFn';
import { addUsage, findRun, type RunEnd } from '../../transitions/finishRun';
import type { Usage } from '../../model/laneEvent';
import { integrateRun } from '../integration/integrateRun';
import { integratePullRequest } from '../integration/pullRequestFlow';
import { reviewRun } from './reviewRun';
import type { RunContext } from '../runContext';
import type { RunPlan } from '../runPlan';
import { outputSummary } from '../../text/failureLines';
import { verifyAcceptance } from './verifyAcceptance';

export interface StagesInput {
  task: Task;
  run: Run;
  /** The run's settings, fixed at its claim. */
  plan: RunPlan;
  signal: AbortSignal;
  record: RecordFn;
  env: Record<string, string>;
  change: CapturedChange;
  captured: Omit<Extract<RunEnd, { ok: true }>, 'ok'>;
  resuming: boolean;
  redactor: Redactor;
  /** The change's patch before redaction (what the guards read); undefined: they diff the change themselves. */
  patch?: string;
}

/**
 * After the lane succeeded: VERIFYING (the acceptance command, then the
 * guards on the change), REVIEWING (when the project turned review on) and
 * INTEGRATING (when integration is on), each entered only when it has a
 * free slot. The run's end says how far it got; a stage failure carries the
 * feedback the next attempt gets.
 */
export async function runStages(ctx: RunContext, input: StagesInput): Promise<RunEnd> {
  const { task, run, plan, signal, record, change } = input;
  const { settings } = plan;
  const waits: Record<string, number> = {};
  const base = { ...input.captured, laneOk: true, stageWaitMs: waits };
  const done = (): RunEnd => ({ ...base, ok: true });
  const enter = async (to: Stage, from: TaskState): Promise<'entered' | 'stale' | 'aborted'> => {
    if (input.resuming && (await alreadyAt(ctx, task.id, to))) return 'entered';
    const r = await ctx.stageGate.enter({
      taskId: task.id,
      run,
      from: [from],
      to,
      signal,
      onWait: (m) => record('decision', { message: m }),
    });
    if (!r.entered) return r.why;
    if (r.waitedMs) {
      waits[to] = r.waitedMs;
      record('decision', { message: `got a ${to} slot after waiting ${(r.waitedMs / 1000).toFixed(1)} s` });
    }
    return 'entered';
  };
  const stopped = (stage: Stage): RunEnd => ({
    ...base,
    ok: false,
    code: 'canceled',
    reason: `stopped while waiting for a ${stage} slot`,
  });

  // VERIFYING: a canceled task's result is kept (finishRun marks it STALE_RESULT).
  const v = await enter('VERIFYING', 'RUNNING');
  if (v === 'stale') return done();
  if (v === 'aborted') return stopped('VERIFYING');
  const evidence: string[] = [];
  if (task.spec.acceptance) {
    record('decision', { message: `verifying with \`${task.spec.acceptance}\`` });
    const verdict = await verifyAcceptance(
      task.spec.acceptance,
      run.worktree,
      input.env,
      settings.verifyTimeoutSeconds * 1_000,
      signal,
    );
    record('verify', { ok: verdict.ok, output: verdict.output.slice(-4_000) });
    if (!verdict.ok) {
      // A worktree without the main checkout's ignored files (node_modules, .env…) fails for that, not for the change.
      const missing = signal.aborted ? undefined : await missingIgnoredNote(ctx.root, run.worktree);
      const reason = missing ? `${verdict.reason}; ${missing}` : verdict.reason;
      if (missing) record('decision', { message: missing });
      const feedback = `Attempt ${run.attempt} failed verification: ${reason}\nThe command's output (last part):\n${verdict.output.slice(-3_000).trimEnd()}`;
      return {
        ...base,
        ok: false,
        code: signal.aborted ? 'canceled' : 'verify-failed',
        reason,
        feedback,
      };
    }
    evidence.push(
      `acceptance command \`${task.spec.acceptance}\` passed${verdict.output.trim() ? `: ${outputSummary(verdict.output)}` : ''}`,
    );
  } else {
    record('decision', { message: 'no acceptance command: verification passes' });
    evidence.push('no acceptance command (nothing to run)');
  }
  if ((settings.integration.enabled || settings.review.enabled) && change.stat.files > 0) {
    const guards = await guardRunDiff({
      root: ctx.root,
      cwd: run.worktree,
      base: run.baseCommit,
      head: change.headCommit,
      runId: run.id,
      patch: input.patch,
      secrets: input.redactor.known(),
      provided: settings.worktree,
    });
    for (const result of guards.results) evidence.push(`guard ${formatGuardEvent(result)}`);
    record('decision', {
      message: `guards on the change: ${guards.results.map((r) => `${r.guard} ${r.verdict}`).join(', ')}`,
    });
    if (guards.blocked) {
      const secret = guards.results.some((r) => r.guard === 'secret-scan' && r.verdict === 'block');
      const reason = guards.reason ?? 'blocked by guards';
      if (secret) return { ...base, ok: false, code: 'policy-violation', reason };
      return {
        ...base,
        ok: false,
        code: 'guard-blocked',
        reason,
        feedback: `Switchyard's guards refused the change: ${reason}. Remove the conflict markers.`,
      };
    }
  }

  let review: Run['review'];
  if (settings.review.enabled) {
    const r = await enter('REVIEWING', 'VERIFYING');
    if (r === 'stale') return done();
    if (r === 'aborted') return stopped('REVIEWING');
    const outcome = await reviewRun(ctx, {
      task,
      run,
      plan,
      head: change.headCommit,
      diff: change.diff,
      evidence,
      signal,
      redactor: input.redactor,
      record,
    });
    if (outcome.usage || outcome.ok) base.reviewUsage = await keepReview(ctx, run.id, outcome);
    if (!outcome.ok)
      return { ...base, ok: false, code: signal.aborted ? 'canceled' : 'review-failed', reason: outcome.reason };
    review = outcome.review;
    const reasons = review.reasons.length ? review.reasons : ['(no reasons given)'];
    if (review.verdict === 'changes-requested') {
      record('decision', { message: `review by lane ${review.lane}: changes requested: ${reasons.join('; ')}` });
      const feedback = `The review (lane ${review.lane}) requested changes:\n${reasons.map((x) => `- ${x}`).join('\n')}`;
      return {
        ...base,
        review,
        ok: false,
        code: 'changes-requested',
        reason: `review requested changes: ${reasons.join('; ')}`,
        feedback,
      };
    }
    record('decision', {
      message: `review by lane ${review.lane}: approved${review.reasons.length ? ` (${review.reasons.join('; ')})` : ''}`,
    });
  }

  if (settings.integration.enabled) {
    const i = await enter('INTEGRATING', settings.review.enabled ? 'REVIEWING' : 'VERIFYING');
    if (i === 'stale') return { ...done(), review };
    if (i === 'aborted') return { ...stopped('INTEGRATING'), review };
    const note = (message: string): void => record('decision', { message });
    const merged =
      settings.integration.mode === 'pull-request'
        ? await integratePullRequest(ctx, {
            task,
            run,
            plan,
            head: change.headCommit,
            signal,
            record: note,
            redactor: input.redactor,
            evidence,
            review,
            usage: addUsage(base.usage, base.reviewUsage),
            enterAwaitingCi: () => enter('AWAITING_CI', 'INTEGRATING'),
          })
        : await integrateRun(ctx, task, run, settings.integration, change.headCommit, note);
    if (merged.ok === 'stale') return { ...done(), review };
    if (!merged.ok)
      return { ...base, review, ok: false, code: merged.code, reason: merged.reason, feedback: merged.feedback };
  }
  return { ...done(), review };
}

/**
 * Records a review's verdict and adds its cost to the run's at once (a crash
 * before the run's end, e.g. after its merge, must not lose them); returns
 * the cost of the run's reviews so far.
 */
async function keepReview(
  ctx: RunContext,
  runId: string,
  outcome: { ok: boolean; review?: Run['review']; usage?: Usage },
): Promise<Usage | undefined> {
  return ctx.store
    .updateWorking((s) => {
      const r = findRun(s, runId);
      r.reviewUsage = addUsage(r.reviewUsage, outcome.usage);
      if (outcome.review) r.review = outcome.review;
      return r.reviewUsage;
    })
    .catch(() => outcome.usage);
}

async function alreadyAt(ctx: RunContext, taskId: string, stage: Stage): Promise<boolean> {
  // A task in a stage is unfinished: in the working set.
  const state = (await ctx.store.readWorking()).tasks.find((t) => t.id === taskId)?.state;
  return state !== undefined && (STAGES as readonly TaskState[]).indexOf(state) >= STAGES.indexOf(stage);
}

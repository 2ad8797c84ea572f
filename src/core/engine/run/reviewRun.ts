import { errorMessage } from '../../errors';
import { withWorktreeLock } from '../../workspace/worktreeLock';
import { git } from '../../git/gitExec';
import { buildLaneEnv } from '../../lanes/laneEnv';
import { runLane } from '../../lanes/runLane';
import { taskSpecEnv, writeTaskSpecFile } from '../../lanes/taskSpecEnv';
import type { Usage } from '../../model/laneEvent';
import type { Run } from '../../model/run';
import type { Task } from '../../model/task';
import type { Redactor } from '../../secrets/redactor';
import { addEnvCredentials } from '../../secrets/credentialEnv';
import { resolveLaneSecrets } from '../../secrets/resolveLaneSecrets';
import { modelKeyRefusal } from './modelKeyBinding';
import { worktreePath } from '../../store/runPaths';
import { removeWorktree } from '../../workspace/worktrees';
import type { RunContext } from '../runContext';
import type { RunPlan } from '../runPlan';
import { runDir } from '../../store/runFiles';

/** `usage`: what the review's paid calls cost (counted in the run's, task's, lane's and project's totals). */
export type ReviewOutcome =
  | { ok: true; review: NonNullable<Run['review']>; usage?: Usage }
  | { ok: false; reason: string; usage?: Usage };

export interface ReviewInput {
  task: Task;
  run: Run;
  /** The run's settings, fixed at its claim. */
  plan: RunPlan;
  head: string;
  diff: string;
  /** Gate evidence: the acceptance command's result and the guards' verdicts, one line each. */
  evidence: string[];
  signal: AbortSignal;
  redactor: Redactor;
  record(type: string, body: Record<string, unknown>): void;
}

const MAX_DIFF = 200_000;

/**
 * The independent review: the review lane (the project's `review.lane`, or
 * the lane that did the work) runs in its own detached worktree at the run's
 * commit with `mode: 'review'`. Its spec is the task's spec, the diff and
 * the gate evidence; it never sees the worker's transcript. It must answer
 * with a verdict (`review` in its result).
 */
export async function reviewRun(ctx: RunContext, input: ReviewInput): Promise<ReviewOutcome> {
  const { task, run, plan } = input;
  const laneId = plan.settings.review.lane ?? run.lane;
  const lane = ctx.registry.get(laneId);
  if (!lane) return { ok: false, reason: `review lane "${laneId}" is not registered` };
  const { settings } = plan.lane(laneId);
  const timeoutMs =
    typeof settings.timeoutMs === 'number' && settings.timeoutMs > 0
      ? settings.timeoutMs
      : lane.manifest.defaultTimeoutMs;
  const refusal = await modelKeyRefusal(ctx, lane.manifest, settings);
  if (refusal) return { ok: false, reason: refusal };
  const secrets = await resolveLaneSecrets(lane.manifest, ctx.secrets, input.redactor);
  if (!secrets.ok) return { ok: false, reason: secrets.reason };

  const dir = worktreePath(ctx.root, `${run.id}.review`);
  const started = Date.now();
  try {
    await withWorktreeLock(ctx.root, () => git(ctx.root, ['worktree', 'add', '--force', '--detach', dir, input.head]));
    const diff =
      input.diff.length > MAX_DIFF
        ? `${input.diff.slice(0, MAX_DIFF)}\n[… diff cut at ${MAX_DIFF} characters]`
        : input.diff;
    const spec = [
      task.spec.spec || task.spec.title,
      '',
      '## Diff to review',
      '```diff',
      diff.trimEnd(),
      '```',
      '',
      '## Gate evidence',
      ...input.evidence.map((e) => `- ${e}`),
    ].join('\n');
    input.record('decision', {
      message: `review by lane ${laneId} in ${dir} (spec, diff and gate evidence; not the worker's transcript)`,
    });
    const specFile = await writeTaskSpecFile(runDir(ctx.root, run.id), 'review-spec.md', spec);
    const env = buildLaneEnv(ctx.parentEnv, lane.manifest.envAllowlist, {
      SWITCHYARD_TASK_ID: task.id,
      SWITCHYARD_TASK_TITLE: task.spec.title,
      ...taskSpecEnv(spec, specFile),
      SWITCHYARD_TASK_FILES: task.spec.files.join('\n'),
      SWITCHYARD_RUN_ID: `${run.id}.review`,
      SWITCHYARD_ATTEMPT: String(run.attempt),
      SWITCHYARD_WORKSPACE: dir,
      SWITCHYARD_REVIEW: '1',
      SWITCHYARD_REVIEWED_RUN: run.id,
    });
    addEnvCredentials(input.redactor, env, settings, [ctx.parentEnv, process.env]);
    const outcome = await runLane(
      lane,
      {
        task: { id: task.id, title: task.spec.title, spec, files: task.spec.files, acceptance: task.spec.acceptance },
        workspaceDir: dir,
        env,
        attempt: { runId: `${run.id}.review`, attempt: 1, parentRunId: run.id },
        mode: 'review',
        settings,
        secrets: secrets.secrets,
        call: async (_spec, fn) => {
          const idempotencyKey = `${run.id}.review`;
          return { status: 'ok', value: await fn({ idempotencyKey }), replayed: false, idempotencyKey };
        },
      },
      { timeoutMs, cancelSignal: input.signal, onEvent: (event) => input.record('review', { event }) },
    );
    const durationMs = Date.now() - started;
    const usage = outcome.usage ? { usage: outcome.usage } : {};
    if (!outcome.ok) return { ok: false, reason: `review lane ${laneId} failed: ${outcome.reason}`, ...usage };
    if (!outcome.review)
      return {
        ok: false,
        reason: `review lane ${laneId} finished without a verdict (its result needs review: {verdict, reasons})`,
        ...usage,
      };
    return {
      ok: true,
      review: { lane: laneId, verdict: outcome.review.verdict, reasons: outcome.review.reasons, durationMs },
      ...usage,
    };
  } catch (error) {
    return { ok: false, reason: `review could not run: ${errorMessage(error)}` };
  } finally {
    await removeWorktree(ctx.root, dir).catch(() => undefined);
  }
}

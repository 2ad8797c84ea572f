import { z } from 'zod';
import { FailureCode } from './failureCodes';
import { RunState } from './runStates';
import { Usage } from './laneEvent';
import { PullRequestRecord } from './pullRequestRecord';

export const Run = z
  .object({
    id: z.string(),
    taskId: z.string(),
    lane: z.string(),
    attempt: z.number().int().min(1),
    parentRunId: z.string().optional(),
    retryReason: z.string().optional(),
    generation: z.number().int().min(0),
    state: RunState,
    branch: z.string(),
    worktree: z.string(),
    baseCommit: z.string(),
    startedAt: z.string(),
    endedAt: z.string().optional(),
    durationMs: z.number().optional(),
    failureCode: FailureCode.optional(),
    failureReason: z.string().optional(),
    summary: z.string().optional(),
    /** Tokens and cost of every paid call of the run: its lane's and its review's (`reviewUsage`). */
    usage: Usage.optional(),
    /** The part of `usage` spent by the run's reviews (every review of it, a resumed run's too). */
    reviewUsage: Usage.optional(),
    diffStat: z.object({ files: z.number(), insertions: z.number(), deletions: z.number() }).strict().optional(),
    headCommit: z.string().optional(),
    owner: z.string().optional(),
    /** The lane's own session id (agent CLIs), kept so a later attempt can resume that session. */
    sessionId: z.string().optional(),
    /** Partial work of a failed or interrupted run, kept on its own branch for the next attempt and the operator. */
    salvage: z.object({ branch: z.string(), commit: z.string(), files: z.number().int() }).strict().optional(),
    /**
     * What this run continues from: the earlier run, its session (and the directory that session began in), where the
     * worktree starts (`start`, see newRun's startPoint) and the commit it starts at when that is the earlier work.
     */
    resumeFrom: z
      .object({
        runId: z.string(),
        sessionId: z.string().optional(),
        sessionCwd: z.string().optional(),
        salvageBranch: z.string().optional(),
        commit: z.string().optional(),
        /**
         * `earlier-work`: the worktree starts from the earlier run's work (`commit`); `target-head`: from the target
         * branch's current head, `base`: from the task's base, the earlier work (on `workBranch`) given as context.
         * Absent in records made before it was kept.
         */
        start: z.enum(['earlier-work', 'target-head', 'base']).optional(),
        /** The branch holding the earlier run's work (its salvage branch, or its own branch). */
        workBranch: z.string().optional(),
      })
      .strict()
      .optional(),
    /** How many times another process took the run over and resumed it from its journal. */
    resumes: z.number().int().min(0).optional(),
    /**
     * Hash of the task input (title, spec, files, acceptance) the run was started with; a result for a changed input is
     * stale.
     */
    inputHash: z.string().optional(),
    /** What this attempt was told: the previous attempt's verification output, review reasons or conflicting files. */
    feedback: z.string().optional(),
    /** The independent review of this run's change. */
    review: z
      .object({
        lane: z.string(),
        verdict: z.enum(['approve', 'changes-requested']),
        reasons: z.array(z.string()),
        durationMs: z.number().optional(),
      })
      .strict()
      .optional(),
    /** The merge of this run's branch into the target branch. */
    integration: z
      .object({
        branch: z.string(),
        commit: z.string(),
        pushed: z.boolean().optional(),
        pushError: z.string().optional(),
      })
      .strict()
      .optional(),
    /**
     * A move of the target branch decided and recorded before git makes it (integrateRun): from `from` (absent: the
     * branch did not exist) to `to`. Cleared when the move is confirmed or known not to have happened; a run whose
     * owner stopped with one recorded is resolved by recovery from where the branch is (recoverRuns).
     */
    integrationIntent: z
      .object({ branch: z.string(), from: z.string().optional(), to: z.string(), at: z.string() })
      .strict()
      .optional(),
    /** The pull request this run's branch was proposed in, its required checks and its end (pull-request mode). */
    pullRequest: PullRequestRecord.optional(),
    /** How long the run waited for a slot in each downstream stage (milliseconds). */
    stageWaitMs: z.record(z.string(), z.number()).optional(),
    resumeCounts: z
      .object({
        replayed: z.number().int(),
        resent: z.number().int(),
        rerun: z.number().int(),
        uncertain: z.number().int(),
      })
      .strict()
      .optional(),
    /** Preparing the worktree (worktree.copy, .link, .setup): how long it took, whether the setup cache served it. */
    setup: z
      .object({
        durationMs: z.number(),
        cache: z.enum(['hit', 'stored', 'none']),
        /** Part of `durationMs` spent waiting for another run building the same cache entry. */
        waitMs: z.number().optional(),
      })
      .strict()
      .optional(),
    /** The run's port block: `SWITCHYARD_PORT` is PORT_BASE + 10 × portSlot (no two active runs share a slot). */
    portSlot: z.number().int().min(0).optional(),
  })
  .strict();
export type Run = z.infer<typeof Run>;

import { z } from 'zod';
import { FailureCode } from './failureCodes';
import { RunState } from './runStates';
import { Usage } from './laneEvent';

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
    usage: Usage.optional(),
    diffStat: z.object({ files: z.number(), insertions: z.number(), deletions: z.number() }).strict().optional(),
    headCommit: z.string().optional(),
    owner: z.string().optional(),
    /** The lane's own session id (agent CLIs), kept so a later attempt can resume that session. */
    sessionId: z.string().optional(),
    /** Partial work of a failed or interrupted run, kept on its own branch for the next attempt and the operator. */
    salvage: z.object({ branch: z.string(), commit: z.string(), files: z.number().int() }).strict().optional(),
    /** What this run continues from: the earlier run, its session, and the salvaged commit the worktree starts at. */
    resumeFrom: z.object({ runId: z.string(), sessionId: z.string().optional(), salvageBranch: z.string().optional(), commit: z.string().optional() }).strict().optional(),
    /** How many times another process took the run over and resumed it from its journal. */
    resumes: z.number().int().min(0).optional(),
    resumeCounts: z
      .object({ replayed: z.number().int(), resent: z.number().int(), rerun: z.number().int(), uncertain: z.number().int() })
      .strict()
      .optional(),
  })
  .strict();
export type Run = z.infer<typeof Run>;

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
    /** How many times another process took the run over and resumed it from its journal. */
    resumes: z.number().int().min(0).optional(),
    resumeCounts: z
      .object({ replayed: z.number().int(), resent: z.number().int(), rerun: z.number().int(), uncertain: z.number().int() })
      .strict()
      .optional(),
  })
  .strict();
export type Run = z.infer<typeof Run>;

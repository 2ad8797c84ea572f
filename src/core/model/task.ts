import { z } from 'zod';
import { TaskState } from './taskStates';

const LANE_ID = /^[a-z][a-z0-9-]{0,39}$/;
export const LaneId = z
  .string()
  .regex(LANE_ID, 'a lane id is lower-case letters, digits and dashes, starting with a letter');

/**
 * An urgent flag: who raised it, why, and until when. All three are required;
 * an expired flag stops counting (the scheduler drops it lazily). That the
 * expiry lies in the future is checked when a task is added, not here, so a
 * stored task whose flag has expired still loads.
 */
export const UrgentFlag = z
  .object({
    owner: z
      .string({ error: 'urgent.owner is required: who asked for it' })
      .trim()
      .min(1, 'urgent.owner is required: who asked for it'),
    reason: z
      .string({ error: 'urgent.reason is required: why it is urgent' })
      .trim()
      .min(1, 'urgent.reason is required: why it is urgent'),
    expiresAt: z.iso.datetime({ error: 'urgent.expiresAt must be an ISO date-time, e.g. 2030-01-31T12:00:00Z' }),
  })
  .strict();
export type UrgentFlag = z.infer<typeof UrgentFlag>;

/** What a user (or a task file) gives to create a task. */
export const TaskSpec = z
  .object({
    title: z.string().trim().min(1, 'a task needs a title').max(200),
    /** A name other tasks of the same file can use in `dependsOn` (task ids are only known once added). */
    key: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,60}$/, 'a key is 1-60 letters, digits, dots, dashes or underscores')
      .optional(),
    spec: z.string().default(''),
    files: z.array(z.string().min(1)).default([]),
    acceptance: z.string().min(1).optional(),
    dependsOn: z.array(z.string().min(1)).default([]),
    priority: z.number().int().min(0).max(100).default(50),
    lane: LaneId.optional(),
    urgent: UrgentFlag.optional(),
    /** Start as DRAFT: not scheduled until approved (`switchyard approve <task>`). */
    draft: z.boolean().optional(),
  })
  .strict();
export type TaskSpecInput = z.input<typeof TaskSpec>;
export type TaskSpec = z.infer<typeof TaskSpec>;

/** A file of tasks for `switchyard task add --file`: one spec or a list. */
export const TaskFile = z.union([z.array(TaskSpec), z.object({ tasks: z.array(TaskSpec) }).strict(), TaskSpec]);

export const Task = z
  .object({
    id: z.string(),
    spec: TaskSpec,
    state: TaskState,
    baseCommit: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    attempts: z.number().int().min(0),
    /** Attempts made before the current budget (a Retry Task, a move to a fallback lane): run attempt numbers go on. */
    attemptsBefore: z.number().int().min(0).optional(),
    /** Incremented on cancel; a result from an older generation is stale. */
    generation: z.number().int().min(0),
    failureReason: z.string().optional(),
    lastRunId: z.string().optional(),
    /** What the next attempt is told: the failed verification's output, the review's reasons, the conflicting files. */
    feedback: z.string().optional(),
    /** The next attempt starts no earlier than this (retry backoff). */
    retryAt: z.string().optional(),
    /** For a BLOCKED task: the dependencies that FAILED or were CANCELED. */
    blockedBy: z.array(z.string()).optional(),
    /** Lanes whose attempt budget this task spent before moving down the project's fallback chain. */
    fallbackFrom: z.array(z.string()).optional(),
    /** Where the task's work landed when it was integrated. */
    integration: z
      .object({
        branch: z.string(),
        commit: z.string(),
        runId: z.string(),
        at: z.string(),
        /** In pull-request mode: the merged pull request. */
        pullRequest: z.object({ number: z.number().int(), url: z.string() }).strict().optional(),
      })
      .strict()
      .optional(),
    /** Where a person merged the task's change (`switchyard merge`, Merge into Current Branch): one commit. */
    merged: z.object({ branch: z.string(), commit: z.string(), runId: z.string(), at: z.string() }).strict().optional(),
    /**
     * A person looked at the DONE task's change and discarded it (Discard Change): not to be merged; its run branches
     * were deleted.
     */
    discarded: z.object({ runId: z.string(), at: z.string() }).strict().optional(),
  })
  .strict();
export type Task = z.infer<typeof Task>;

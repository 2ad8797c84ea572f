import { z } from 'zod';
import { TaskState } from './taskStates';

const LANE_ID = /^[a-z][a-z0-9-]{0,39}$/;
export const LaneId = z.string().regex(LANE_ID, 'a lane id is lower-case letters, digits and dashes, starting with a letter');

/** What a user (or a task file) gives to create a task. */
export const TaskSpec = z
  .object({
    title: z.string().trim().min(1, 'a task needs a title').max(200),
    spec: z.string().default(''),
    files: z.array(z.string().min(1)).default([]),
    acceptance: z.string().min(1).optional(),
    dependsOn: z.array(z.string().min(1)).default([]),
    priority: z.number().int().min(0).max(100).default(50),
    lane: LaneId.optional(),
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
    /** Incremented on cancel; a result from an older generation is stale. */
    generation: z.number().int().min(0),
    failureReason: z.string().optional(),
    lastRunId: z.string().optional(),
  })
  .strict();
export type Task = z.infer<typeof Task>;

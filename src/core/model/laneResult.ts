import { z } from 'zod';
import { Usage } from './laneEvent';

/** What a lane's `run` resolves with. The host adds the workspace diff. */
export const LaneResult = z
  .object({
    status: z.enum(['succeeded', 'failed']),
    summary: z.string().optional(),
    failureReason: z.string().optional(),
    usage: Usage.optional(),
    sessionId: z.string().optional(),
  })
  .strict();
export type LaneResult = z.infer<typeof LaneResult>;

import { z } from 'zod';
import { Usage } from './laneEvent';

/** What a lane's `run` resolves with. The host adds the workspace diff. */
export const LaneResult = z
  .object({
    status: z.enum(['succeeded', 'failed']),
    summary: z.string().optional(),
    failureReason: z.string().optional(),
    /**
     * Why it failed, when the lane knows better than `lane-exit`: a bad setting, a budget hit, a provider refusal a
     * retry cannot fix, every edit or command denied.
     */
    failureCode: z
      .enum(['lane-exit', 'lane-misconfigured', 'budget-exceeded', 'provider-rejected', 'permission-denied'])
      .optional(),
    usage: Usage.optional(),
    sessionId: z.string().optional(),
    /**
     * A review run's verdict (lanes started with `mode: 'review'`):
     * `approve`, or `changes-requested` with the reasons the next attempt gets.
     */
    review: z
      .object({ verdict: z.enum(['approve', 'changes-requested']), reasons: z.array(z.string()) })
      .strict()
      .optional(),
  })
  .strict();
export type LaneResult = z.infer<typeof LaneResult>;
/** What a lane may return: defaults (e.g. usage fields) are filled in when it is parsed. */
export type LaneResultInput = z.input<typeof LaneResult>;

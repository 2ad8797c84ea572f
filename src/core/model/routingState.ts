import { z } from 'zod';

/**
 * A canary: the project's default lane flipped to `lane`, judged against `baselineLane` with thresholds fixed up front.
 */
export const Canary = z
  .object({
    lane: z.string(),
    baselineLane: z.string(),
    startedAt: z.string(),
    windowMs: z.number().int().min(60_000),
    /** Verdict `hold` when the canary's completion rate is below this share of the baseline's. */
    holdBelow: z.number().gt(0).max(1),
    /** Verdict `expand-candidate` when its cost per completed task is at most this share of the baseline's. */
    expandAtCost: z.number().gt(0).max(1),
    /** Below this many tasks on either lane the report says "not enough data". */
    minSamples: z.number().int().min(1),
  })
  .strict();
export type Canary = z.infer<typeof Canary>;

const RoutingSnapshot = z.object({ defaultLane: z.string(), canary: Canary.optional() }).strict();
export type RoutingSnapshot = z.infer<typeof RoutingSnapshot>;

/** One recorded routing change: who, when, why, and the state before and after. */
export const RoutingChange = z
  .object({
    id: z.number().int().min(1),
    at: z.string(),
    who: z.string(),
    why: z.string(),
    kind: z.enum(['default-lane', 'canary-start', 'canary-rollback', 'canary-thresholds', 'canary-end']),
    previous: RoutingSnapshot,
    next: RoutingSnapshot,
  })
  .strict();
export type RoutingChange = z.infer<typeof RoutingChange>;

export const RoutingState = z
  .object({
    canary: Canary.optional(),
    history: z.array(RoutingChange).default([]),
  })
  .strict();
export type RoutingState = z.infer<typeof RoutingState>;

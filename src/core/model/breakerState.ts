import { z } from 'zod';

/**
 * A circuit breaker as stored in the project state (`breakers[<lane>]`), so
 * the CLI, the tree and every process see the same one.
 * - `closed`: runs start; `recent` holds the latest failures in a row.
 * - `open` (since, code): no new run starts on the lane until `cooldownMs` passed.
 * - `half-open`: probe runs; `successes` in a row so far (1, then 2, then 4… may run at once).
 */
export const BreakerState = z
  .object({
    state: z.enum(['closed', 'open', 'half-open']),
    since: z.string(),
    /** The failure code that opened it (the last one, if it opened again). */
    code: z.string().optional(),
    recent: z.array(z.object({ code: z.string(), at: z.string() }).strict()).default([]),
    successes: z.number().int().min(0).default(0),
    /** How many times it opened, ever. */
    opened: z.number().int().min(0).default(0),
  })
  .strict();
export type BreakerState = z.infer<typeof BreakerState>;

import { z } from 'zod';

/**
 * Tokens and cost. `inputTokens` is the whole prompt; `cacheReadTokens` and `cacheWriteTokens` are the parts of it read
 * from and written to the provider's prompt cache (the rest was billed at the full input price).
 */
export const Usage = z
  .object({
    inputTokens: z.number().int().min(0).default(0),
    outputTokens: z.number().int().min(0).default(0),
    costUsd: z.number().min(0).default(0),
    cacheReadTokens: z.number().int().min(0).optional(),
    cacheWriteTokens: z.number().int().min(0).optional(),
  })
  .strict();
export type Usage = z.infer<typeof Usage>;

/** Two usages added up; the cache fields appear when either side has them. */
export function sumUsage(a: Usage, b: Usage): Usage {
  const read = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const write = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  const cached = a.cacheReadTokens !== undefined || b.cacheReadTokens !== undefined;
  const written = a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd + b.costUsd,
    ...(cached ? { cacheReadTokens: read } : {}),
    ...(written ? { cacheWriteTokens: write } : {}),
  };
}

/** The normalized events every lane emits, whatever its vendor. */
export const LaneEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).strict(),
  z.object({ type: z.literal('log'), stream: z.enum(['stdout', 'stderr']), line: z.string() }).strict(),
  z.object({ type: z.literal('tool-call'), callId: z.string(), name: z.string(), input: z.unknown() }).strict(),
  z
    .object({
      type: z.literal('tool-result'),
      callId: z.string(),
      output: z.unknown(),
      isError: z.boolean().default(false),
    })
    .strict(),
  z.object({ type: z.literal('usage'), usage: Usage }).strict(),
  z
    .object({ type: z.literal('progress'), message: z.string(), fraction: z.number().min(0).max(1).optional() })
    .strict(),
  z.object({ type: z.literal('session'), sessionId: z.string() }).strict(),
]);
export type LaneEvent = z.infer<typeof LaneEvent>;
export type LaneEventInput = z.input<typeof LaneEvent>;
/** Usage as a lane gives it: every field may be left out (it counts as 0). */
export type UsageInput = z.input<typeof Usage>;

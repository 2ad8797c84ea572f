import { z } from 'zod';

const Pattern = z.string().min(1);

/** One merge-policy rule: which pushed branches it covers and whose history they may merge in. */
export const MergePolicyRule = z
  .object({
    /** Branches pushed under this rule (the remote ref being updated), e.g. `feature/*` or `switchyard/**`. */
    feature: z.union([Pattern, z.array(Pattern).min(1)]),
    /** The branch their pull requests aim at, e.g. `main`. Its history may always be merged in. */
    base: Pattern,
    /** More branches whose history may be merged in, e.g. `release/*`. */
    allowed: z.array(Pattern).default([]),
  })
  .strict();
export type MergePolicyRule = z.infer<typeof MergePolicyRule>;

/** The merge policy: `mergePolicy` in `.switchyard/config.json` (formerly `.switchyard/merge-policy.json`). */
export const MergePolicy = z
  .object({ version: z.literal(1).optional(), rules: z.array(MergePolicyRule).min(1) })
  .strict();
export type MergePolicy = z.infer<typeof MergePolicy>;

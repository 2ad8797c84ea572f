import { z } from 'zod';

const Verdict = z.object({
  verdict: z.enum(['approve', 'changes-requested']),
  reasons: z.array(z.string()).default([]),
});
export type Verdict = z.infer<typeof Verdict>;

/** What a CLI is asked to end a review with: one JSON line the lane can read back. */
export const VERDICT_INSTRUCTIONS = [
  'End your answer with one line of JSON and nothing after it:',
  '{"verdict": "approve", "reasons": ["…"]} when the change does what the task asks and is safe to merge, or',
  '{"verdict": "changes-requested", "reasons": ["what must change", "…"]} otherwise.',
].join('\n');

/** The last verdict object in a CLI's final answer, if it gave one. */
export function parseVerdict(text: string | undefined): Verdict | undefined {
  if (!text) return undefined;
  const candidates = text.match(/\{[^{}]*"verdict"[^{}]*\}/g) ?? [];
  for (const candidate of candidates.reverse()) {
    try {
      const parsed = Verdict.safeParse(JSON.parse(candidate));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON after all; an earlier one may be.
    }
  }
  return undefined;
}

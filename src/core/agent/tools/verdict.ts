import { z } from 'zod';
import { defineTool } from '../agentTool';

export const VERDICT = 'verdict';

export const VerdictInput = z
  .object({
    verdict: z.enum(['approve', 'changes-requested']).describe('approve, or changes-requested'),
    reasons: z
      .array(z.string().trim().min(1))
      .describe('Why: for changes-requested, each concrete problem and what to do (file and line where you can)'),
  })
  .strict();

/**
 * `verdict`: ends a review run with its verdict. Like `finish`, the loop handles it and nothing is journaled for it.
 */
export const verdictTool = defineTool({
  name: VERDICT,
  description:
    'Call this once you have reviewed the change: approve it, or request changes with concrete reasons. The review ends here.',
  inputSchema: VerdictInput,
  replay: () => 'safe',
  run: async (input) => ({ text: `verdict: ${input.verdict}` }),
});

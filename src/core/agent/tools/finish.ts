import { z } from 'zod';
import { defineTool } from '../agentTool';

export const FINISH = 'finish';

export const FinishInput = z
  .object({ summary: z.string().trim().min(1).describe('What you changed and how you checked it, in a few sentences') })
  .strict();

/**
 * `finish`: ends the run with a summary. The loop handles it; it has no side effect, so nothing is journaled for it.
 */
export const finishTool = defineTool({
  name: FINISH,
  description: 'Call this once the task is done (and checked), with a short summary. The run ends here.',
  inputSchema: FinishInput,
  replay: () => 'safe',
  run: async (input) => ({ text: `finished: ${input.summary}` }),
});

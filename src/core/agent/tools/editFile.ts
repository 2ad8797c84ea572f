import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError, defineTool } from '../agentTool';
import { resolveInWorkspace } from '../workspacePath';

const Input = z
  .object({
    path: z.string().describe('File path relative to the worktree root'),
    search: z
      .string()
      .min(1)
      .describe('Text that occurs exactly once in the file, copied exactly (whitespace and indentation included)'),
    replace: z.string().describe('The text that takes its place'),
  })
  .strict();

/**
 * `edit_file`: exact search/replace of text that occurs once. Safe to re-run:
 * when the search text is gone and the replacement is there, the edit was
 * already made (an interrupted call that ran) and it reports so instead of
 * failing.
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Change part of a file: replace the exact text `search` (which must occur exactly once) with `replace`. Read the file first and copy the text exactly.',
  inputSchema: Input,
  replay: () => 'safe',
  async run(input, ctx) {
    const file = await resolveInWorkspace(ctx.workspaceDir, input.path);
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new ToolError(
        error.code === 'ENOENT'
          ? `file "${input.path}" does not exist; create it with write_file`
          : `cannot read "${input.path}": ${error.code ?? error.message}`,
      );
    });
    if (alreadyApplied(text, input.search, input.replace)) {
      return {
        text: `${input.path} already contains the replacement text and not the search text: the edit was already made`,
      };
    }
    const at = occurrences(text, input.search);
    if (at.length === 1) {
      const start = at[0]!;
      await writeFile(file, text.slice(0, start) + input.replace + text.slice(start + input.search.length));
      return { text: `edited ${input.path} at line ${lineOf(text, start)}` };
    }
    if (at.length > 1) {
      const lines = at
        .slice(0, 10)
        .map((i) => lineOf(text, i))
        .join(', ');
      throw new ToolError(
        `the search text occurs ${at.length} times in ${input.path} (at lines ${lines}); include more of the surrounding lines so it matches exactly once`,
      );
    }
    throw new ToolError(
      `the search text was not found in ${input.path}; read the file and copy the text exactly, whitespace and indentation included`,
    );
  },
});

/**
 * The replacement is there once, and apart from it the search text is not: applying the edit again would change nothing
 * the model asked for.
 */
function alreadyApplied(text: string, search: string, replace: string): boolean {
  if (!replace || replace === search) return false;
  const at = occurrences(text, replace);
  if (at.length !== 1) return false;
  return occurrences(`${text.slice(0, at[0])}\0${text.slice(at[0]! + replace.length)}`, search).length === 0;
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

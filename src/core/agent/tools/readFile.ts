import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError, clip, defineTool } from '../agentTool';
import { resolveInWorkspace } from '../workspacePath';

const MAX_CHARS = 100_000;

const Input = z
  .object({
    path: z.string().describe('File path relative to the worktree root'),
    startLine: z.number().int().min(1).optional().describe('First line to return (1-based); default 1'),
    endLine: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Last line to return (inclusive); default the end of the file'),
  })
  .strict();

/** `read_file`: a file's text, or a range of its lines. Read-only, so safe to re-run. */
export const readFileTool = defineTool({
  name: 'read_file',
  description:
    "Read a text file in the worktree. Returns its exact content (optionally only lines startLine..endLine), which you can copy into edit_file's search text.",
  inputSchema: Input,
  replay: () => 'safe',
  async run(input, ctx) {
    const file = await resolveInWorkspace(ctx.workspaceDir, input.path);
    const info = await stat(file).catch(() => {
      throw new ToolError(`file "${input.path}" does not exist; use list_dir or search to find the right path`);
    });
    if (info.isDirectory())
      throw new ToolError(`"${input.path}" is a folder, not a file; use list_dir to see what it holds`);
    const buffer = await readFile(file);
    if (buffer.subarray(0, 8_000).includes(0))
      throw new ToolError(`"${input.path}" is a binary file (${buffer.length} bytes); only text files can be read`);
    const text = buffer.toString('utf8');
    if (input.startLine === undefined && input.endLine === undefined) return { text: clip(text, MAX_CHARS) };
    const lines = text.split('\n');
    const from = input.startLine ?? 1;
    const to = Math.min(input.endLine ?? lines.length, lines.length);
    if (from > lines.length)
      throw new ToolError(`"${input.path}" has ${lines.length} lines; startLine ${from} is past the end`);
    if (to < from) throw new ToolError(`endLine ${to} is before startLine ${from}`);
    return { text: clip(lines.slice(from - 1, to).join('\n'), MAX_CHARS) };
  },
});

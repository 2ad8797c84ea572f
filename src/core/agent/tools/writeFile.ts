import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ToolError, defineTool } from '../agentTool';
import { resolveInWorkspace } from '../workspacePath';

const Input = z
  .object({
    path: z.string().describe('File path relative to the worktree root; missing folders are created'),
    content: z.string().describe('The whole new content of the file'),
  })
  .strict();

/** `write_file`: creates or replaces a file. The same input leaves the same file, so it is safe to re-run. */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    "Create a file, or replace a file's whole content. For a change to part of an existing file use edit_file.",
  inputSchema: Input,
  replay: () => 'safe',
  async run(input, ctx) {
    const file = await resolveInWorkspace(ctx.workspaceDir, input.path);
    const existing = await stat(file).catch(() => undefined);
    if (existing?.isDirectory()) throw new ToolError(`"${input.path}" is a folder; give a file path`);
    await mkdir(dirname(file), { recursive: true });
    // Folders created just now could not have been checked for symlinks before; check the final path again.
    await resolveInWorkspace(ctx.workspaceDir, input.path);
    await writeFile(file, input.content);
    const lines = input.content ? input.content.split('\n').length : 0;
    return {
      text: `${existing ? 'replaced' : 'created'} ${input.path} (${Buffer.byteLength(input.content)} bytes, ${lines} lines)`,
    };
  },
});

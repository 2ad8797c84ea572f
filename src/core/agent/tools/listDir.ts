import { readdir, stat } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError, defineTool } from '../agentTool';
import { resolveInWorkspace } from '../workspacePath';

const MAX_ENTRIES = 500;

const Input = z
  .object({ path: z.string().default('.').describe('Folder path relative to the worktree root; default the root') })
  .strict();

/** `list_dir`: a folder's entries, folders marked with a trailing `/`. Read-only, so safe to re-run. */
export const listDirTool = defineTool({
  name: 'list_dir',
  description: 'List the files and folders in a worktree folder (folders end with "/"). Not recursive.',
  inputSchema: Input,
  replay: () => 'safe',
  async run(input, ctx) {
    const dir = await resolveInWorkspace(ctx.workspaceDir, input.path || '.');
    const info = await stat(dir).catch(() => {
      throw new ToolError(`folder "${input.path}" does not exist`);
    });
    if (!info.isDirectory()) throw new ToolError(`"${input.path}" is a file, not a folder; use read_file to read it`);
    const entries = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.name !== '.git')
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    if (!entries.length) return { text: '(empty folder)' };
    const shown = entries.slice(0, MAX_ENTRIES).join('\n');
    return {
      text: entries.length > MAX_ENTRIES ? `${shown}\n[… ${entries.length - MAX_ENTRIES} more entries]` : shown,
    };
  },
});

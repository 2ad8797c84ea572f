import { z } from 'zod';
import { ToolError, clip, defineTool } from '../agentTool';
import { resolveInWorkspace } from '../workspacePath';

const MAX_LINES = 200;

const Input = z
  .object({
    pattern: z.string().min(1).describe('The text to look for'),
    regex: z.boolean().default(false).describe('Treat pattern as an extended regular expression; default: plain text'),
    path: z.string().default('.').describe('Limit the search to this file or folder (relative to the worktree root)'),
    ignoreCase: z.boolean().default(false),
  })
  .strict();

/**
 * `search`: `git grep` over the worktree's tracked and untracked (not
 * ignored) text files, `file:line:text` per match. Read-only, so safe to re-run.
 */
export const searchTool = defineTool({
  name: 'search',
  description:
    'Search the worktree\'s files (git grep: tracked and untracked, not ignored). Returns "file:line:text" per match, at most 200.',
  inputSchema: Input,
  replay: () => 'safe',
  async run(input, ctx) {
    await resolveInWorkspace(ctx.workspaceDir, input.path || '.');
    const args = ['grep', '-n', '-I', '--untracked', '--no-color', '--full-name', input.regex ? '-E' : '-F'];
    if (input.ignoreCase) args.push('-i');
    args.push('-e', input.pattern, '--', input.path || '.');
    const { execa } = await import('execa');
    const result = await execa('git', args, {
      cwd: ctx.workspaceDir,
      reject: false,
      cancelSignal: ctx.signal,
      stdin: 'ignore',
      env: { ...ctx.env },
      extendEnv: false,
    });
    if (result.exitCode === 1 && !result.stderr) return { text: `no matches for ${JSON.stringify(input.pattern)}` };
    if (result.exitCode !== 0)
      throw new ToolError(
        `search failed: ${String(result.stderr).trim() || `git grep exited with code ${result.exitCode}`}`,
      );
    const lines = String(result.stdout).split('\n').filter(Boolean);
    const shown = lines
      .slice(0, MAX_LINES)
      .map((l) => clip(l, 400))
      .join('\n');
    return {
      text:
        lines.length > MAX_LINES
          ? `${shown}\n[… ${lines.length - MAX_LINES} more matches; narrow the pattern or the path]`
          : shown,
    };
  },
});

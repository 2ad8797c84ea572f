import { z } from 'zod';
import { gitLines, gitSaid } from '../../git/gitExec';
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
 * git runs with the lane's allowlisted environment and stops when the run is
 * canceled; matches past the first 200 are counted, not kept.
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
    const shown: string[] = [];
    let matches = 0;
    const keep = (line: string): void => {
      if (line && matches++ < MAX_LINES) shown.push(clip(line, 400));
    };
    // git grep exits with 1 when nothing matched.
    await gitLines(ctx.workspaceDir, args, keep, [0, 1], { baseEnv: ctx.env, signal: ctx.signal }).catch(
      (error: unknown) => {
        throw new ToolError(`search failed: ${gitSaid(error)}`);
      },
    );
    if (matches === 0) return { text: `no matches for ${JSON.stringify(input.pattern)}` };
    return {
      text:
        matches > MAX_LINES
          ? `${shown.join('\n')}\n[… ${matches - MAX_LINES} more matches; narrow the pattern or the path]`
          : shown.join('\n'),
    };
  },
});

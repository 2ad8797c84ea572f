import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { ToolError } from './agentTool';

/**
 * Resolves a path the model gave to a real path inside the run's worktree.
 * Absolute paths, `..` that leaves the worktree, the worktree's `.git`, and
 * symlinks (of the path or any folder on the way) that lead outside are
 * rejected with an error the model can read and act on.
 */
export async function resolveInWorkspace(workspaceDir: string, path: unknown): Promise<string> {
  if (typeof path !== 'string' || !path.trim())
    throw new ToolError('path must be a non-empty path relative to the worktree root, e.g. "src/app.ts"');
  if (path.includes('\0')) throw new ToolError(`path ${JSON.stringify(path)} contains a NUL character`);
  if (isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('~')) {
    throw new ToolError(
      `path "${path}" is absolute: paths are relative to the worktree root (e.g. "src/app.ts"), and nothing outside the worktree can be reached`,
    );
  }
  const root = await realpath(workspaceDir);
  const target = resolve(root, normalize(path));
  const rel = relative(root, target);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new ToolError(`path "${path}" leaves the worktree: paths must stay inside the worktree root`);
  }
  if (rel.split(sep)[0] === '.git')
    throw new ToolError(`path "${path}" is inside .git: the repository's metadata is not for tools to read or change`);
  const real = await realpath(await deepestExisting(target)).catch(() => {
    throw new ToolError(`path "${path}" goes through a symlink whose target does not exist; it is not allowed`);
  });
  if (real !== root && !real.startsWith(root + sep)) {
    throw new ToolError(
      `path "${path}" goes through a symlink that leads outside the worktree (to ${relative(root, real) || real}); it is not allowed`,
    );
  }
  return target;
}

/**
 * The path itself when it exists (a dangling symlink counts: realpath then fails loudly), else its nearest existing
 * parent.
 */
async function deepestExisting(path: string): Promise<string> {
  for (let probe = path; ; probe = dirname(probe)) {
    try {
      await lstat(probe);
      return probe;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(probe) === probe) throw error;
    }
  }
}

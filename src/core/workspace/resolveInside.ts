import { lstat, readlink, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';

export type InsideResolution =
  /** `real`: the path with every symlink on the way resolved; `exists`: the last component is there. */
  | { ok: true; real: string; exists: boolean; endsInSymlink: boolean }
  /** Why the path is refused: the symlink that leaves `dir` (or whose target is missing), named as it is. */
  | { ok: false; problem: string };

/**
 * Resolves `path` (relative, `/`-separated, as `worktree.copy` and
 * `worktree.link` name it) inside `dir` one component at a time: each
 * symlink on the way is resolved to its real path, and one that resolves
 * outside `dir`'s real path (a committed `up -> ..`) refuses the whole path,
 * naming the link. A missing component ends the walk (`exists: false`): what
 * is not there cannot lead anywhere. The check is on the file system, never
 * on the text of the path.
 */
export async function resolveInside(dir: string, path: string, named = 'the repository'): Promise<InsideResolution> {
  const root = await realpath(dir);
  const parts = path.split(/[\\/]/).filter((p) => p && p !== '.');
  let current = root;
  let shown = '';
  for (const [i, part] of parts.entries()) {
    shown = shown ? `${shown}/${part}` : part;
    const next = join(current, part);
    const kind = await lstat(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    });
    if (!kind) return { ok: true, real: join(next, ...parts.slice(i + 1)), exists: false, endsInSymlink: false };
    if (part === '..' || (!kind.isSymbolicLink() && !inside(root, next)))
      return { ok: false, problem: `${path} leaves ${named} at ${shown}` };
    if (!kind.isSymbolicLink()) {
      current = next;
      continue;
    }
    const target = await readlink(next);
    const real = await realpath(next).catch(() => undefined);
    if (!real)
      return { ok: false, problem: `${path} passes through the symlink ${shown} -> ${target}, which is dangling` };
    if (!inside(root, real))
      return { ok: false, problem: `${path} passes through the symlink ${shown} -> ${target}, which leaves ${named}` };
    current = real;
    if (i === parts.length - 1) return { ok: true, real, exists: true, endsInSymlink: true };
  }
  return { ok: true, real: current, exists: true, endsInSymlink: false };
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

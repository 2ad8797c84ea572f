import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Switchyard's folder in a repository: state, run logs and worktrees. */
export const STATE_DIR = '.switchyard';

/**
 * Creates `<root>/.switchyard/` with a `.gitignore` of `*`, so it ignores itself and the user's .gitignore is never
 * edited.
 */
export async function ensureStateDir(root: string, ...sub: string[]): Promise<string> {
  const dir = join(root, STATE_DIR);
  await mkdir(join(dir, ...sub), { recursive: true });
  await writeFile(join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined);
  return join(dir, ...sub);
}

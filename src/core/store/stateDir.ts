import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Switchyard's folder in a repository: state, run logs and worktrees. */
export const STATE_DIR = '.switchyard';

/**
 * What `.switchyard/.gitignore` says: everything but the committed project config is ignored (the file ignores itself
 * too, so a repository without a config shows nothing new in `git status`; each checkout writes its own).
 */
export const STATE_DIR_GITIGNORE = '*\n!config.json\n';

/** The folders whose `.gitignore` this process has seen in place (it is looked at once per process, not per call). */
const checked = new Set<string>();

/**
 * Creates `<root>/.switchyard/` with a `.gitignore` that ignores everything but `config.json`, so the
 * user's .gitignore is never edited; the older `*` (which hid the config too) is replaced.
 */
export async function ensureStateDir(root: string, ...sub: string[]): Promise<string> {
  const dir = join(root, STATE_DIR);
  await mkdir(join(dir, ...sub), { recursive: true });
  if (checked.has(dir)) return join(dir, ...sub);
  const file = join(dir, '.gitignore');
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === undefined || current === '*\n')
    await writeFile(file, STATE_DIR_GITIGNORE, current === undefined ? { flag: 'wx' } : {}).catch(() => undefined);
  checked.add(dir);
  return join(dir, ...sub);
}

import { readFile } from 'node:fs/promises';
import { keepContentCopy } from '../store/keepContentCopy';

/**
 * Keeps a copy of `file` as `<file>.v1-<sha256 prefix>.bak` before a migration rewrites it (see keepContentCopy:
 * synced, whole, named after its content, so running the migration again after a crash keeps one copy, not two).
 * Returns the copy's path.
 */
export async function keepMigrationBackup(file: string): Promise<string> {
  return keepContentCopy(file, await readFile(file), 'v1');
}

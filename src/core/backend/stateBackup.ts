import { createHash } from 'node:crypto';
import { link, open, readFile, rm } from 'node:fs/promises';

/**
 * Keeps a copy of `file` as `<file>.v1-<sha256 prefix>.bak` before a migration rewrites it: synced, made whole by a
 * hard link (a crash leaves no half copy), and named after its content, so running the migration again after a
 * crash keeps one copy, not two. Returns the copy's path.
 */
export async function keepMigrationBackup(file: string): Promise<string> {
  const bytes = await readFile(file);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const backup = `${file}.v1-${hash}.bak`;
  const temp = `${backup}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await link(temp, backup)
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    })
    .finally(() => rm(temp, { force: true }));
  return backup;
}

import { createHash } from 'node:crypto';
import { link, open, rm } from 'node:fs/promises';

/**
 * Keeps `bytes` (read from `file`) as `<file>.<tag>-<sha256 prefix>.bak`: synced, made whole by a hard link (a crash
 * leaves no half copy; a link appears whole or not at all), and named after its content, so keeping the same bytes
 * again adds no second copy. Returns the copy's path.
 */
export async function keepContentCopy(file: string, bytes: Buffer, tag: string): Promise<string> {
  const backup = contentCopyPath(file, bytes, tag);
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

/** Where keepContentCopy keeps these bytes of `file`. */
export function contentCopyPath(file: string, bytes: Buffer, tag: string): string {
  return `${file}.${tag}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.bak`;
}

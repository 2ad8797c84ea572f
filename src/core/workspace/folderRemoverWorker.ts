/**
 * The folder remover's worker (folderRemover.ts starts it): removes one folder a message with `rmSync`, so the
 * dozens of stats, unlinks and rmdirs of a worktree are made on this thread instead of as so many round trips through
 * the thread pool from the main thread.
 */
import { rmSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** What folderRemover.ts sends: remove `path`, answer with `id`. */
export interface Removal {
  id: number;
  path: string;
}

/** The answer: `message` (and the errno name `code`) when the removal failed. */
export interface Removed {
  id: number;
  message?: string;
  code?: string;
}

parentPort?.on('message', ({ id, path }: Removal) => {
  try {
    rmSync(path, { recursive: true, force: true });
    parentPort?.postMessage({ id } satisfies Removed);
  } catch (error) {
    const { message, code } = error as NodeJS.ErrnoException;
    parentPort?.postMessage({ id, message: String(message), code } satisfies Removed);
  }
});

import { lstatSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Entries removed synchronously before the rest is left to the thread pool: about a millisecond of blocking. */
export const SYNC_REMOVE_BUDGET = 256;

class OverBudget extends Error {}

/**
 * Removes `path` and everything under it, like `rm -rf` (a missing path is fine). A small tree, the usual run
 * worktree of a small change or git's record of a worktree, goes synchronously: dozens of thread-pool round trips
 * cost far more CPU than the unlinks themselves. Past `budget` entries the rest is removed asynchronously, so a
 * worktree of a large repository never blocks the event loop for long.
 */
export async function removeTree(path: string, budget = SYNC_REMOVE_BUDGET): Promise<void> {
  const left = { entries: budget };
  try {
    removeSync(path, left);
    return;
  } catch {
    // Over the budget, or a failure (a file appearing meanwhile, a permission): `rm` does the rest, and reports
    // what it cannot remove.
  }
  await rm(path, { recursive: true, force: true });
}

function removeSync(path: string, left: { entries: number }): void {
  if (left.entries-- <= 0) throw new OverBudget();
  let isDir: boolean;
  try {
    isDir = lstatSync(path).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!isDir) {
    unlinkMissingOk(path);
    return;
  }
  for (const name of readdirSync(path)) removeSync(join(path, name), left);
  try {
    rmdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function unlinkMissingOk(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

import type { Dirent } from 'node:fs';
import { lstat, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { repositoryDirs } from '../git/repositoryDirs';
import { STATE_DIR, ensureStateDir } from '../store/stateDir';
import { WORKTREES_DIR } from '../store/runPaths';

/** How many worktrees Switchyard keeps in a repository and the disk they take, as far as it is known. */
export interface WorktreeUsage {
  count: number;
  /** Disk blocks of the worktree folders and their admin folders in `.git/worktrees`; absent when unknown. */
  bytes?: number;
  /** When `bytes` was measured (the last drain, or the last clean). */
  measuredAt?: string;
}

const CachedUsage = z.object({ count: z.number().int().min(0), bytes: z.number().min(0), measuredAt: z.string() });

/** Files and folders one measurement visits at most; a larger tree's size is unknown rather than slow to tell. */
export const USAGE_MAX_ENTRIES = 200_000;
const CACHE_FILE = 'worktree-usage.json';

function cachePath(root: string): string {
  return join(root, STATE_DIR, CACHE_FILE);
}

/** The folders in `.switchyard/worktrees/` (each a worktree, a review's included). */
async function worktreeFolders(root: string): Promise<string[]> {
  const entries = await readdir(join(root, WORKTREES_DIR), { withFileTypes: true }).catch(() => [] as Dirent[]);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

/**
 * Counts the worktrees and sums the disk blocks (`st_blocks`, not apparent sizes) of their folders and of their git
 * admin folders, visiting at most `maxEntries` files; past that the size is unknown. The figure is kept in
 * `.switchyard/worktree-usage.json`, which `readWorktreeUsage` reads.
 */
export async function measureWorktreeUsage(root: string, maxEntries = USAGE_MAX_ENTRIES): Promise<WorktreeUsage> {
  const names = await worktreeFolders(root);
  const admin = await gitAdminDir(root);
  // A file hard-linked into several worktrees (a setup cache restore, `cp -al`) takes its disk once: counted once.
  const budget = { left: maxEntries, seen: new Set<string>() };
  let bytes = 0;
  for (const name of names) {
    const own = await blocksUnder(join(root, WORKTREES_DIR, name), budget);
    const git = admin ? await blocksUnder(join(admin, name), budget) : 0;
    if (own === undefined || git === undefined) {
      bytes = Number.NaN;
      break;
    }
    bytes += own + git;
  }
  const measuredAt = new Date().toISOString();
  if (Number.isNaN(bytes)) {
    // Unknown now: an older figure must not pass for it.
    await rm(cachePath(root), { force: true }).catch(() => undefined);
    return { count: names.length };
  }
  const usage = { count: names.length, bytes, measuredAt };
  await ensureStateDir(root);
  const tmp = `${cachePath(root)}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(usage)}\n`)
    .then(() => rename(tmp, cachePath(root)))
    .catch(() => undefined);
  return usage;
}

/**
 * The worktree count now, and their size as last measured, when the count is still what it was then (otherwise the
 * size is unknown, so absent).
 */
export async function readWorktreeUsage(root: string): Promise<WorktreeUsage> {
  const count = (await worktreeFolders(root)).length;
  const cached = await readFile(cachePath(root), 'utf8').then(
    (text) => CachedUsage.safeParse(JSON.parse(text)),
    () => undefined,
  );
  if (cached?.success && cached.data.count === count) return { ...cached.data };
  return { count };
}

/** `.git/worktrees` of the repository (its common git folder), or undefined when git cannot say. */
async function gitAdminDir(root: string): Promise<string | undefined> {
  const common = (await repositoryDirs(root))?.common;
  return common ? join(common, 'worktrees') : undefined;
}

/**
 * Disk bytes under `path` (symbolic links not followed; a file with several hard links counted once per measurement,
 * by device and inode); undefined when the budget of entries runs out.
 */
async function blocksUnder(path: string, budget: { left: number; seen: Set<string> }): Promise<number | undefined> {
  let total = 0;
  const stack = [path];
  while (stack.length) {
    const current = stack.pop()!;
    if (--budget.left < 0) return undefined;
    const info = await lstat(current, { bigint: true }).catch(() => undefined);
    if (!info) continue;
    if (info.nlink > 1n && !info.isDirectory()) {
      const id = `${info.dev}:${info.ino}`;
      if (budget.seen.has(id)) continue;
      budget.seen.add(id);
    }
    total += Number(info.blocks !== undefined ? info.blocks * 512n : info.size);
    if (!info.isDirectory()) continue;
    const children = await readdir(current).catch(() => [] as string[]);
    for (const child of children) stack.push(join(current, child));
  }
  return total;
}

import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { z } from 'zod';
import { startProcessGroup } from '../process/startProcessGroup';
import { STATE_DIR, ensureStateDir } from '../store/stateDir';

export const SETUP_CACHE_DIR = join(STATE_DIR, 'setup-cache');

/** Lockfiles whose content decides what setup installs; the cache key hashes whichever exist at the top level. */
const LOCKFILES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lockb',
  'uv.lock',
  'poetry.lock',
  'Pipfile.lock',
];
const REQUIREMENTS = /^requirements.*\.txt$/;

/**
 * The cache key of a worktree's setup: a hash of its lockfiles, the setup
 * commands and the platform; undefined when the worktree has no lockfile
 * (nothing pins what setup installs, so nothing is cached).
 */
export async function setupCacheKey(worktree: string, commands: readonly string[]): Promise<string | undefined> {
  const names = (await readdir(worktree)).filter((n) => LOCKFILES.includes(n) || REQUIREMENTS.test(n)).sort();
  if (!names.length) return undefined;
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ commands, platform: process.platform, arch: process.arch }));
  for (const name of names) {
    hash.update(`\0${name}\0`);
    hash.update(await readFile(join(worktree, name)));
  }
  return hash.digest('hex').slice(0, 24);
}

/** An entry's record: the paths it holds and their size in bytes (entries stored before sizes were kept lack it). */
export const CacheEntry = z.object({ paths: z.array(z.string()), bytes: z.number().min(0).optional() }).strict();
/** The record of an entry inside its folder; its modification time is when the entry was last stored or restored. */
export const ENTRY_FILE = 'entry.json';

/** The paths a stored entry holds, or undefined when there is none (or it cannot be read). */
export async function readCacheEntry(root: string, key: string): Promise<string[] | undefined> {
  try {
    const text = await readFile(join(root, SETUP_CACHE_DIR, key, ENTRY_FILE), 'utf8');
    return CacheEntry.parse(JSON.parse(text)).paths;
  } catch {
    return undefined;
  }
}

/**
 * Copies the entry's paths into the worktree, copy-on-write where the file system can (`cp --reflink=auto`): the
 * worktree gets its own files, so a run that edits `node_modules` in place never changes the cache later runs restore.
 * The entry's record is touched: it was used now (pruning removes the least recently used first).
 */
export async function restoreCacheEntry(root: string, key: string, paths: readonly string[], worktree: string) {
  for (const path of paths) await ownCopy(join(root, SETUP_CACHE_DIR, key, 'files', path), join(worktree, path));
  const now = new Date();
  await utimes(join(root, SETUP_CACHE_DIR, key, ENTRY_FILE), now, now).catch(() => undefined);
}

/**
 * Stores what setup produced in the worktree as the entry for `key` (a copy of its own, like a restore, so the run
 * that stored it cannot change it either): built in a temporary folder and renamed into place, so a reader never sees
 * half an entry; an entry already there is kept.
 */
export async function storeCacheEntry(root: string, key: string, paths: readonly string[], worktree: string) {
  const base = await ensureStateDir(root, 'setup-cache');
  const temp = join(base, `.tmp-${key}-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    for (const path of paths) await ownCopy(join(worktree, path), join(temp, 'files', path));
    const bytes = await treeBytes(join(temp, 'files'));
    await writeFile(join(temp, ENTRY_FILE), `${JSON.stringify({ paths, bytes })}\n`);
    await rename(temp, join(base, key)).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST' && error.code !== 'ENOTEMPTY') throw error;
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/**
 * Runs `fn` holding the lock of one cache entry (across processes), so that
 * of several runs that miss the same entry at once one builds it and the
 * others wait and reuse it. Resolves with how long it waited.
 */
export async function withCacheEntryLock<T>(
  root: string,
  key: string,
  maxWaitMs: number,
  fn: (waitedMs: number) => Promise<T>,
): Promise<T> {
  const base = await ensureStateDir(root, 'setup-cache');
  const started = Date.now();
  const release = await lockfile.lock(base, {
    lockfilePath: join(base, `${key}.lock`),
    realpath: false,
    stale: 20_000,
    retries: { retries: Math.ceil(maxWaitMs / 250) + 10, minTimeout: 50, maxTimeout: 250, factor: 1.3 },
  });
  try {
    return await fn(Date.now() - started);
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * `cp -a --reflink=auto` (copy-on-write clones on btrfs, XFS and other file systems that have them; a full copy
 * elsewhere), else on macOS `cp -ac` (clones on APFS), else `cp -a`. Never hard links: the copy must not share its
 * files.
 */
async function ownCopy(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  // GNU cp; macOS's cp clones with -c (APFS); any cp copies with -a.
  const tries = [['-a', '--reflink=auto'], ...(process.platform === 'darwin' ? [['-ac']] : []), ['-a']];
  for (const flags of tries) {
    if ((await cp([...flags, from, to], dirname(to))) === 0) return;
    await rm(to, { recursive: true, force: true });
  }
  throw new Error(`could not copy ${from} to ${to}`);
}

/** The apparent size of the files under `dir` (symlinks not followed; folders count nothing). */
export async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path);
    if (!info.isDirectory()) total += info.size;
    else for (const name of await readdir(path)) await walk(join(path, name));
  };
  await walk(dir).catch(() => undefined);
  return total;
}

async function cp(args: string[], cwd: string): Promise<number | undefined> {
  const group = startProcessGroup({ file: 'cp', args, cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  group.stdout.resume();
  group.stderr.resume();
  return (await group.done).exitCode;
}

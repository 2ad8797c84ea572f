import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
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

const CacheEntry = z.object({ paths: z.array(z.string()) }).strict();

/** The paths a stored entry holds, or undefined when there is none (or it cannot be read). */
export async function readCacheEntry(root: string, key: string): Promise<string[] | undefined> {
  try {
    const text = await readFile(join(root, SETUP_CACHE_DIR, key, 'entry.json'), 'utf8');
    return CacheEntry.parse(JSON.parse(text)).paths;
  } catch {
    return undefined;
  }
}

/** Hard-link copies the entry's paths into the worktree (a plain copy where hard links fail, e.g. across devices). */
export async function restoreCacheEntry(root: string, key: string, paths: readonly string[], worktree: string) {
  for (const path of paths) await linkCopy(join(root, SETUP_CACHE_DIR, key, 'files', path), join(worktree, path));
}

/**
 * Stores what setup produced in the worktree as the entry for `key`: built
 * in a temporary folder and renamed into place, so a reader never sees half
 * an entry; an entry already there is kept.
 */
export async function storeCacheEntry(root: string, key: string, paths: readonly string[], worktree: string) {
  const base = await ensureStateDir(root, 'setup-cache');
  const temp = join(base, `.tmp-${key}-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    for (const path of paths) await linkCopy(join(worktree, path), join(temp, 'files', path));
    await writeFile(join(temp, 'entry.json'), `${JSON.stringify({ paths })}\n`);
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

/** `cp -al` (hard links), else `cp -a` (another device, or a `cp` without `-l`). */
async function linkCopy(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  if ((await cp(['-al', from, to], dirname(to))) === 0) return;
  await rm(to, { recursive: true, force: true });
  if ((await cp(['-a', from, to], dirname(to))) === 0) return;
  throw new Error(`could not copy ${from} to ${to}`);
}

async function cp(args: string[], cwd: string): Promise<number | undefined> {
  const group = startProcessGroup({ file: 'cp', args, cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  group.stdout.resume();
  group.stderr.resume();
  return (await group.done).exitCode;
}

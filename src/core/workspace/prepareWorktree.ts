import { constants } from 'node:fs';
import { copyFile, mkdir, stat, symlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage } from '../errors';
import type { Run } from '../model/run';
import type { WorktreeSettings } from '../store/orchestratorSettings';
import { ignoredEntries } from './ignoredEntries';
import { resolveInside } from './resolveInside';
import { runSetupCommand } from './runSetupCommand';
import { readCacheEntry, restoreCacheEntry, setupCacheKey, storeCacheEntry, withCacheEntryLock } from './setupCache';

export interface PrepareInput {
  /** The main checkout. */
  root: string;
  worktree: string;
  settings: WorktreeSettings;
  /** The environment of the setup commands (the lane's: allowlist, run id, port block). */
  env: Record<string, string>;
  signal?: AbortSignal;
  onLine(stream: 'stdout' | 'stderr', line: string): void;
  onDecision(message: string): void;
}

export type PrepareOutcome =
  | { ok: true; setup: NonNullable<Run['setup']> }
  | { ok: false; code: 'workspace-setup-failed' | 'canceled'; reason: string; setup: NonNullable<Run['setup']> };

/**
 * Prepares a fresh worktree before its lane starts: copies `worktree.copy`
 * files and symlinks `worktree.link` folders from the main checkout, then
 * runs `worktree.setup`. With the setup cache on and a lockfile present, the
 * ignored files setup produced are stored per lockfile hash, and a later
 * worktree with the same hash gets its own copy (copy-on-write where the file system can) instead of running setup.
 */
export async function prepareWorktree(input: PrepareInput): Promise<PrepareOutcome> {
  const started = Date.now();
  const { root, worktree, settings } = input;
  let cache: NonNullable<Run['setup']>['cache'] = 'none';
  let waitMs: number | undefined;
  const took = (): NonNullable<Run['setup']> => ({
    durationMs: Date.now() - started,
    cache,
    ...(waitMs ? { waitMs } : {}),
  });
  const fail = (reason: string): PrepareOutcome => ({
    ok: false,
    code: 'workspace-setup-failed',
    reason,
    setup: took(),
  });

  for (const file of settings.copy) {
    const problem = await provide(root, worktree, file, 'copy');
    if (problem) return fail(problem);
  }
  for (const folder of settings.link) {
    const problem = await provide(root, worktree, folder, 'link');
    if (problem) return fail(problem);
  }
  if (!settings.setup.length) return { ok: true, setup: took() };

  const timeoutMs = settings.setupTimeoutSeconds * 1000;
  const key = settings.setupCache ? await setupCacheKey(worktree, settings.setup) : undefined;
  const runCommands = async (): Promise<PrepareOutcome | undefined> => {
    // The timeout counts from the first command: waiting for another run's cache build does not use it up.
    const deadline = Date.now() + timeoutMs;
    for (const command of settings.setup) {
      input.onDecision(`worktree setup: \`${command}\``);
      const exit = await runSetupCommand(
        command,
        worktree,
        input.env,
        Math.max(1, deadline - Date.now()),
        input.signal,
        input.onLine,
      );
      if (exit.ok) continue;
      if (exit.canceled)
        return { ok: false, code: 'canceled', reason: 'canceled during worktree setup', setup: took() };
      const why = exit.why?.startsWith('timed out')
        ? `timed out (worktree.setupTimeoutSeconds is ${settings.setupTimeoutSeconds})`
        : exit.why;
      // What failed first (npm's cause), then the end of the output, without a line twice.
      const lead = exit.lead ?? [];
      const last = exit.tail
        .slice(-3)
        .map((l) => l.trim())
        .filter((l) => !lead.includes(l));
      const said = [lead.join(' | '), last.join(' | ')].filter(Boolean).join(' … ');
      const tail = said ? `: ${said}` : '';
      return fail(
        `worktree setup command \`${command}\` ${why}${tail}. Fix the command in the \`worktree.setup\` setting (it runs in each new worktree before the lane starts) or remove it`,
      );
    }
    return undefined;
  };

  if (!key) {
    const failed = await runCommands();
    return failed ?? { ok: true, setup: took() };
  }
  const restore = async (paths: string[]): Promise<PrepareOutcome> => {
    await restoreCacheEntry(root, key, paths, worktree);
    cache = 'hit';
    input.onDecision(`worktree setup: restored ${paths.join(', ')} from the setup cache (${key})`);
    return { ok: true, setup: took() };
  };
  try {
    // A stored entry never changes (it is renamed into place whole): it is restored without the lock.
    const stored = await readCacheEntry(root, key);
    if (stored) return await restore(stored);
    return await withCacheEntryLock(root, key, timeoutMs, async (waited) => {
      waitMs = waited;
      const paths = await readCacheEntry(root, key);
      if (paths) return restore(paths);
      const before = new Set(await ignoredEntries(worktree));
      const failed = await runCommands();
      if (failed) return failed;
      const provided = new Set([...settings.copy, ...settings.link]);
      const produced = (await ignoredEntries(worktree)).filter((p) => !before.has(p) && !provided.has(p));
      if (produced.length) {
        await storeCacheEntry(root, key, produced, worktree).then(
          () => {
            cache = 'stored';
            input.onDecision(`worktree setup: stored ${produced.join(', ')} in the setup cache (${key})`);
          },
          (error) => input.onDecision(`worktree setup: could not store the setup cache: ${errorMessage(error)}`),
        );
      }
      return { ok: true, setup: took() };
    });
  } catch (error) {
    // The cache is an optimization: when its lock or a restore fails, setup runs the plain way.
    input.onDecision(`worktree setup: setup cache not used: ${errorMessage(error)}`);
    cache = 'none';
    const failed = await runCommands();
    return failed ?? { ok: true, setup: took() };
  }
}

/**
 * Copies a file or symlinks a folder of the main checkout into the worktree; returns what is wrong, if anything. Both
 * ends are resolved on the file system (every symlink on the way): a path that resolves outside the main checkout, or
 * whose place in the worktree does, is refused, naming the symlink (a permanent workspace-setup-failed).
 */
async function provide(
  root: string,
  worktree: string,
  path: string,
  how: 'copy' | 'link',
): Promise<string | undefined> {
  const setting = `worktree.${how}`;
  const named = `${setting} names "${path}", which`;
  const fix = `remove it from ${setting} (copied and linked paths must resolve inside the repository)`;
  const source = await resolveInside(root, path);
  if (!source.ok) return `${setting}: ${source.problem}: ${fix}`;
  if (!source.exists)
    return `${named} does not exist in the main checkout ${root}: create it there or remove it from ${setting}`;
  const kind = await stat(source.real);
  if (how === 'copy' && (source.endsInSymlink || !kind.isFile()))
    return `${named} is not a file in the main checkout: use worktree.link for folders`;
  const place = await resolveInside(worktree, path, 'the worktree');
  if (!place.ok) return `${setting}: ${place.problem}: ${fix}`;
  if (place.exists) return `${named} the worktree already has (it is in the repository): remove it from ${setting}`;
  try {
    await mkdir(dirname(place.real), { recursive: true });
    if (how === 'copy') await copyFile(source.real, place.real, constants.COPYFILE_EXCL);
    else await symlink(source.real, place.real, 'dir');
    return undefined;
  } catch (error) {
    return `${setting} could not ${how} "${path}" into the worktree: ${errorMessage(error)}`;
  }
}

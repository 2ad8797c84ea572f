import { readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorktreeSettings } from '../store/orchestratorSettings';
import { CacheEntry, ENTRY_FILE, SETUP_CACHE_DIR, treeBytes } from './setupCache';

const DAY_MS = 24 * 60 * 60_000;
const MB = 1024 * 1024;
/** A temporary folder of a store this old is left by a crash (a store takes seconds to minutes). */
const STALE_TEMP_MS = DAY_MS;

interface Entry {
  key: string;
  usedMs: number;
  bytes: number;
}

/**
 * Keeps the setup cache within `worktree.setupCacheMaxDays` and `worktree.setupCacheMaxMb`: entries not stored or
 * restored for that many days are removed, then the least recently used until the rest fit; temporary folders of
 * stores that crashed go too. An entry is renamed away before it is deleted, so a later lookup never sees half of it
 * (a restore reading it at that moment fails, and its run runs setup instead). Returns one line per removal.
 */
export async function pruneSetupCache(
  root: string,
  limits: Pick<WorktreeSettings, 'setupCacheMaxDays' | 'setupCacheMaxMb'>,
  now = Date.now(),
): Promise<string[]> {
  const base = join(root, SETUP_CACHE_DIR);
  const names = await readdir(base).catch(() => [] as string[]);
  const lines: string[] = [];
  const entries: Entry[] = [];
  for (const name of names) {
    if (name.endsWith('.lock')) continue;
    if (name.startsWith('.tmp-')) {
      const info = await stat(join(base, name)).catch(() => undefined);
      if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(join(base, name), { recursive: true, force: true });
      continue;
    }
    const entry = await readEntry(base, name);
    if (entry) entries.push(entry);
  }
  entries.sort((a, b) => a.usedMs - b.usedMs);
  let total = entries.reduce((sum, e) => sum + e.bytes, 0);
  const maxBytes = limits.setupCacheMaxMb * MB;
  for (const entry of entries) {
    const days = (now - entry.usedMs) / DAY_MS;
    const why =
      days >= limits.setupCacheMaxDays
        ? `unused for ${Math.floor(days)} days (worktree.setupCacheMaxDays ${limits.setupCacheMaxDays})`
        : total > maxBytes
          ? `the least recently used while the cache holds ${Math.ceil(total / MB)} MB (worktree.setupCacheMaxMb ${limits.setupCacheMaxMb})`
          : undefined;
    if (!why) continue;
    const away = join(base, `.tmp-pruned-${entry.key}-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const moved = await rename(join(base, entry.key), away).then(
      () => true,
      () => false,
    );
    if (!moved) continue;
    await rm(away, { recursive: true, force: true });
    total -= entry.bytes;
    lines.push(`setup cache entry ${entry.key} removed (${Math.ceil(entry.bytes / MB)} MB): ${why}`);
  }
  return lines;
}

/** An entry's last use (its record's time) and size; undefined for a folder that is not a whole entry. */
async function readEntry(base: string, key: string): Promise<Entry | undefined> {
  try {
    const file = join(base, key, ENTRY_FILE);
    const [info, text] = await Promise.all([stat(file), readFile(file, 'utf8')]);
    const record = CacheEntry.parse(JSON.parse(text));
    const bytes = record.bytes ?? (await treeBytes(join(base, key, 'files')));
    return { key, usedMs: info.mtimeMs, bytes };
  } catch {
    return undefined;
  }
}

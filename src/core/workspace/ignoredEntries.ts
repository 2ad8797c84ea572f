import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { gitOutput } from '../git/gitExec';
import { STATE_DIR } from '../store/stateDir';

/**
 * The ignored files and folders of a checkout that git lists without
 * descending into ignored folders (`node_modules`, `.venv`, `.env`, …),
 * relative, without a trailing slash; Switchyard's own folder left out.
 */
export async function ignoredEntries(dir: string): Promise<string[]> {
  const out = await gitOutput(dir, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
  return out
    .split('\0')
    .filter(Boolean)
    .map((p) => p.replace(/\/$/, ''))
    .filter((p) => p !== STATE_DIR && !p.startsWith(`${STATE_DIR}/`));
}

/**
 * The top-level ignored entries the main checkout has and the worktree lacks, as a sentence naming the
 * worktree settings that provide them; undefined when nothing is missing (or the listing fails).
 */
export async function missingIgnoredNote(root: string, worktree: string): Promise<string | undefined> {
  const entries = await ignoredEntries(root).catch(() => [] as string[]);
  const missing: string[] = [];
  for (const entry of entries.filter((p) => !p.includes('/'))) {
    const there = await lstat(join(worktree, entry)).then(
      () => true,
      () => false,
    );
    if (!there) missing.push(entry);
  }
  if (!missing.length) return undefined;
  const shown = missing.slice(0, 8).join(', ') + (missing.length > 8 ? ` and ${missing.length - 8} more` : '');
  return `the worktree lacks ignored files the main checkout has (${shown}): git does not carry ignored files into a worktree; install them with \`worktree.setup\` (e.g. \`npm ci --offline\`), symlink folders with \`worktree.link\` (e.g. ["node_modules"]) or copy files with \`worktree.copy\` (e.g. [".env"])`;
}

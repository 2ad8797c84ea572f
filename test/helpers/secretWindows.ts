import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Every 8-character window of `secret` that occurs in `text`: the acceptance bar for "no piece of the key". */
export function secretWindows(text: string, secret: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i + 8 <= secret.length; i++) {
    const window = secret.slice(i, i + 8);
    if (text.includes(window)) found.add(window);
  }
  return [...found];
}

/**
 * Every file under `dir` (its path relative to `dir`, its text), skipping the directories `skip` names relative to
 * `dir`.
 */
export async function everyFileUnder(
  dir: string,
  skip: readonly string[] = [],
): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name));
    if (skip.some((s) => path === s || path.startsWith(`${s}${sep}`))) continue;
    out.push({ path, text: await readFile(join(dir, path), 'utf8') });
  }
  return out;
}

/** The files (and how many windows each holds) in which a piece of `secret` is found. */
export function leaks(files: readonly { path: string; text: string }[], secret: string): string[] {
  return files.flatMap((f) => {
    const w = secretWindows(f.text, secret);
    return w.length ? [`${f.path} (${w.length} windows)`] : [];
  });
}

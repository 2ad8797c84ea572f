import { AddedLinesParser, diffAddedLines, type AddedLine } from './addedLines';
import { findConflictMarkers, type ConflictMarkerFinding } from './conflictMarkers';
import { git } from '../git/gitExec';
import { scanTreeForConflictMarkers } from './fullTreeScan';

/** Added content kept for the secret scan; beyond this the secret scan warns instead of holding it all. */
export const MAX_COLLECT_BYTES = 64 * 1024 * 1024;

/** With no base, a tree of at most this many files is still scanned line by line (so secrets are scanned too). */
export const FULL_DIFF_MAX_FILES = 2_000;

const EMPTY_TREE = {
  40: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  64: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
} as const;

export interface ContentScan {
  markers: ConflictMarkerFinding[];
  /** Added lines per file, for the secret scan; undefined when they were not kept (see `notCollected`). */
  added?: Map<string, AddedLine[]>;
  notCollected?: string;
}

/**
 * One pass over what `tip` adds: conflict markers always, and the added
 * lines kept for the secret scan when `collect` is set. Without a base, the
 * whole tree is what is added: a small tree is diffed against the empty
 * tree, a large one is searched with `git grep` (markers only).
 */
export async function scanAddedContent(
  cwd: string,
  base: string | undefined,
  tip: string,
  collect: boolean,
): Promise<ContentScan> {
  if (!base) {
    const files = await countFiles(cwd, tip);
    if (files > FULL_DIFF_MAX_FILES) {
      return {
        markers: await scanTreeForConflictMarkers(cwd, tip),
        notCollected: `the whole tree (${files} files) is new to the remote; secrets are scanned for pushes of up to ${FULL_DIFF_MAX_FILES} new files`,
      };
    }
    base = EMPTY_TREE[tip.length as 40 | 64];
  }
  const collector = new AddedCollector(collect);
  await diffAddedLines(cwd, base, tip, (file, line, text) => collector.add(file, line, text));
  return collector.result();
}

/**
 * The same scan as `scanAddedContent` from a patch of `base..tip` the caller already has (as `git diff --patch`
 * prints it, any context size, with or without rename detection), so the change is not diffed again. A renamed or
 * copied file's hunks hold only what changed: those files alone are diffed again without rename detection, so they
 * are scanned whole, as `scanAddedContent` scans them; the findings are the same, in the same order.
 */
export async function scanPatchContent(
  cwd: string,
  base: string,
  tip: string,
  patch: string,
  collect: boolean,
): Promise<ContentScan> {
  const collector = new AddedCollector(collect);
  const renamed = new Set<string>();
  const parser = new AddedLinesParser((file, line, text) => {
    if (!renamed.has(file)) collector.add(file, line, text);
  });
  let seen = 0;
  for (let start = 0; start < patch.length; ) {
    const end = patch.indexOf('\n', start);
    const stop = end < 0 ? patch.length : end;
    parser.push(patch.slice(start, stop));
    start = stop + 1;
    for (; seen < parser.renamed.length; seen++) {
      const file = parser.renamed[seen]!;
      renamed.add(file);
      collector.reserve(file);
    }
  }
  if (renamed.size)
    await diffAddedLines(cwd, base, tip, (file, line, text) => collector.add(file, line, text), [...renamed]);
  return collector.result();
}

/** Added lines as the scan keeps them: lines that may be conflict markers always, all of them up to the byte cap. */
class AddedCollector {
  private readonly added: Map<string, AddedLine[]> | undefined;
  private readonly markerLines = new Map<string, AddedLine[]>();
  private bytes = 0;
  private dropped = false;

  constructor(collect: boolean) {
    this.added = collect ? new Map() : undefined;
  }

  /** Keeps `file`'s place in the order before its lines come (a renamed file, read again later). */
  reserve(file: string): void {
    if (!this.markerLines.has(file)) this.markerLines.set(file, []);
    if (this.added && !this.added.has(file)) this.added.set(file, []);
  }

  add(file: string, line: number, text: string): void {
    if (text.length >= 7 && (text[0] === '<' || text[0] === '>' || text[0] === '|'))
      push(this.markerLines, file, { line, text });
    if (!this.added || this.dropped) return;
    this.bytes += text.length + 1;
    if (this.bytes > MAX_COLLECT_BYTES) this.dropped = true;
    else push(this.added, file, { line, text });
  }

  result(): ContentScan {
    const markers = [...this.markerLines].flatMap(([file, lines]) => findConflictMarkers(file, lines));
    if (this.dropped || !this.added)
      return this.dropped
        ? { markers, notCollected: `more than ${MAX_COLLECT_BYTES / 1024 / 1024} MiB of added lines` }
        : { markers };
    for (const [file, lines] of this.added) if (!lines.length) this.added.delete(file);
    return { markers, added: this.added };
  }
}

function push(map: Map<string, AddedLine[]>, file: string, line: AddedLine): void {
  const list = map.get(file);
  if (list) list.push(line);
  else map.set(file, [line]);
}

async function countFiles(cwd: string, tip: string): Promise<number> {
  const out = await git(cwd, ['ls-tree', '-r', '-z', '--name-only', tip]);
  let n = 0;
  for (let i = out.stdout.indexOf('\0'); i >= 0; i = out.stdout.indexOf('\0', i + 1)) n++;
  return n;
}

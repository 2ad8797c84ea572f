import { diffAddedLines, type AddedLine } from './addedLines';
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
        notCollected:
          `the whole tree (${files} files) is new to the remote; secrets are scanned for pushes of up to ` +
          `${FULL_DIFF_MAX_FILES} new files`,
      };
    }
    base = EMPTY_TREE[tip.length as 40 | 64];
  }
  const added = collect ? new Map<string, AddedLine[]>() : undefined;
  const markerLines = new Map<string, AddedLine[]>();
  let bytes = 0;
  let dropped = false;
  await diffAddedLines(cwd, base, tip, (file, line, text) => {
    if (text.length >= 7 && (text[0] === '<' || text[0] === '>' || text[0] === '|'))
      push(markerLines, file, { line, text });
    if (!added || dropped) return;
    bytes += text.length + 1;
    if (bytes > MAX_COLLECT_BYTES) dropped = true;
    else push(added, file, { line, text });
  });
  const markers = [...markerLines].flatMap(([file, lines]) => findConflictMarkers(file, lines));
  if (dropped) return { markers, notCollected: `more than ${MAX_COLLECT_BYTES / 1024 / 1024} MiB of added lines` };
  return { markers, added };
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

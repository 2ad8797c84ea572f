import { SwitchyardError } from '../errors';
import { gitLines } from '../git/gitExec';

export interface AddedLine {
  line: number;
  text: string;
}

/**
 * Reads a unified diff (as `git diff -U0` prints it) one line at a time and
 * reports every added line with its file and its line number in the new
 * version. Deleted files, removed lines and binary files are skipped. A line
 * it cannot make sense of is an error (the guard then fails safe).
 */
export class AddedLinesParser {
  /**
   * Files the diff shows as renamed or copied (`rename to`, `copy to`), in the order they appear: their hunks hold only
   * what changed, so a caller that wants renames scanned whole reads those files again.
   */
  readonly renamed: string[] = [];
  private file: string | undefined;
  private inHeader = false;
  private next = 0;
  private lineNo = 0;

  constructor(private readonly onAdded: (file: string, line: number, text: string) => void) {}

  push(raw: string): void {
    this.lineNo++;
    if (raw.startsWith('diff --git ')) {
      this.inHeader = true;
      this.file = undefined;
      return;
    }
    if (this.inHeader) {
      if (raw.startsWith('+++ '))
        this.file = raw === '+++ /dev/null' ? undefined : stripPrefix(unquotePath(raw.slice(4)));
      else if (raw.startsWith('@@')) this.hunk(raw);
      else if (raw.startsWith('rename to ')) this.renamed.push(unquotePath(raw.slice('rename to '.length)));
      else if (raw.startsWith('copy to ')) this.renamed.push(unquotePath(raw.slice('copy to '.length)));
      return;
    }
    if (raw.startsWith('@@')) {
      this.hunk(raw);
      return;
    }
    const tag = raw[0];
    if (tag === '+') {
      if (this.file !== undefined) this.onAdded(this.file, this.next, raw.slice(1));
      this.next++;
    } else if (tag === ' ') {
      this.next++;
    } else if (tag !== '-' && tag !== '\\' && raw !== '') {
      throw new SwitchyardError(
        'git-failed',
        `unexpected line ${this.lineNo} in git diff output: ${JSON.stringify(raw.slice(0, 40))}`,
      );
    }
  }

  private hunk(raw: string): void {
    const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (!m)
      throw new SwitchyardError(
        'git-failed',
        `unexpected hunk header at line ${this.lineNo} of git diff output: ${JSON.stringify(raw.slice(0, 40))}`,
      );
    this.inHeader = false;
    this.next = Number(m[1]);
  }
}

function stripPrefix(path: string): string {
  if (!path.startsWith('b/'))
    throw new SwitchyardError('git-failed', `unexpected path in git diff output: ${JSON.stringify(path.slice(0, 60))}`);
  return path.slice(2);
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Undoes git's C-style quoting of unusual paths (`"b/caf\303\251.txt"`). */
export function unquotePath(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = body[i + 1] ?? '';
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[n] ?? n.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Streams the lines `tip` adds over `base` (committed content only, never the
 * working tree). Renames count as additions, so a renamed file is scanned
 * whole; the user's diff settings (external tools, prefixes, colours,
 * textconv, relative paths) are overridden. `paths`: only these files (all when empty).
 */
export async function diffAddedLines(
  cwd: string,
  base: string,
  tip: string,
  onAdded: (file: string, line: number, text: string) => void,
  paths: readonly string[] = [],
): Promise<void> {
  const parser = new AddedLinesParser(onAdded);
  await gitLines(
    cwd,
    [
      '-c',
      'core.quotePath=false',
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-relative',
      '--no-renames',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '--diff-filter=d',
      '-U0',
      base,
      tip,
      '--',
      ...paths.map((p) => `:(literal)${p}`),
    ],
    (line) => parser.push(line),
  );
}

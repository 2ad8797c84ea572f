// Fails when a source line is longer than 120 characters. Biome's formatter
// wraps code at 120 but leaves long strings, comments and template literals
// as they are; this check catches those.
//
// Usage: node scripts/check-line-length.mjs [--summary] [file ...]
// Without files it checks the tracked and new (not ignored) files under the
// folders Biome formats. `--summary` prints the count per folder instead of
// every line.
//
// The one exception is a data table: lines between a line comment
// `// line-length: data-table, <why>` (`#` in shell) and one
// `// line-length: end` are not checked. A region left open is an error, so it
// cannot cover the rest of a file by accident. Files that are recorded data
// as a whole (stream captures under test/fixtures/cli-streams) are .jsonl and
// .md, which are not checked.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const MAX = 120;
const ROOTS = ['src/', 'plugins/', 'webview/', 'test/', 'scripts/', 'bench/', 'examples/', 'switchyard.d.ts'];
const CHECKED = /\.(?:[cm]?[jt]s|json|sh)$/;
// A marker is a line comment of its own (`//` or `#`), so a string that names it is not one.
const START = /^\s*(?:\/\/|#)\s*line-length:\s*data-table\b/;
const END = /^\s*(?:\/\/|#)\s*line-length:\s*end\b/;

/** The too-long lines of one file's text, and any data-table region left open. */
export function longLines(text, max = MAX) {
  const found = [];
  let open;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (open === undefined && START.test(line)) {
      open = i + 1;
      continue;
    }
    if (open !== undefined) {
      if (END.test(line)) open = undefined;
      continue;
    }
    // Characters, not UTF-16 units: `…` and `✖` count one each.
    const length = [...line].length;
    if (length > max) found.push({ line: i + 1, length });
  }
  return { found, unclosed: open };
}

function defaultFiles() {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...ROOTS], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0'))].filter((f) => f && CHECKED.test(f));
}

function folderOf(file) {
  const parts = file.split('/');
  if (parts.length === 1) return file;
  return parts[0] === 'src' && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

function main(argv) {
  const summary = argv.includes('--summary');
  const named = argv.filter((a) => a !== '--summary');
  const files = named.length ? named : defaultFiles();
  const perFolder = new Map();
  let total = 0;
  let unclosed = 0;
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if (error.code === 'ENOENT' && !named.length) continue; // deleted, not yet staged
      throw error;
    }
    const result = longLines(text);
    for (const { line, length } of result.found) {
      if (!summary) console.log(`${file}:${line}: ${length} characters (at most ${MAX})`);
    }
    if (result.unclosed !== undefined) {
      unclosed++;
      console.log(`${file}:${result.unclosed}: a 'line-length: data-table' region without 'line-length: end'`);
    }
    if (result.found.length) {
      total += result.found.length;
      const folder = folderOf(file);
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + result.found.length);
    }
  }
  if (summary) {
    for (const [folder, n] of [...perFolder].sort((a, b) => b[1] - a[1]))
      console.log(`${String(n).padStart(6)}  ${folder}`);
  }
  if (total || unclosed) {
    const regions = unclosed ? `, ${unclosed} unclosed data-table region(s)` : '';
    console.log(`${total} line(s) longer than ${MAX} characters in ${files.length} files checked${regions}`);
    return 1;
  }
  console.log(`line length: ${files.length} files checked, no line longer than ${MAX} characters`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));

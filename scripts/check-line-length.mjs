// Fails when a source line is longer than 120 characters and what makes it
// long is code or a comment. Biome's formatter wraps code at 120 but keeps a
// string, template or regex literal whole by design (cutting one with `+`
// only makes it harder to read and to grep), so a line is allowed past 120
// when its excess is literal text: it passes if, with the text of each such
// literal on it shortened to nothing ('…' to '', a template's text outside
// its ${…}, /…/ to //), it would fit. A URL in a comment counts as literal
// text too. Long comments and long code still fail: wrap the comment, name a
// sub-expression, or split the template at a ${…}.
//
// Usage: node scripts/check-line-length.mjs [--summary] [file ...]
// Without files it checks the tracked and new (not ignored) files under the
// folders Biome formats. `--summary` prints the count per folder instead of
// every line.
//
// The one other exception is a data table: lines between a line comment
// `// line-length: data-table, <why>` (`#` in shell) and one
// `// line-length: end` are not checked. A region left open is an error, so it
// cannot cover the rest of a file by accident. Files that are recorded data
// as a whole (stream captures under test/fixtures/cli-streams) are .jsonl and
// .md, which are not checked.
//
// Literals are found by a small scanner (strings, templates with nested ${…},
// regexes where an expression may start, comments; in shell scripts quotes,
// comments and here-documents). It only decides which characters of a line
// are literal text; it never changes a file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const MAX = 120;
const ROOTS = ['src/', 'plugins/', 'webview/', 'test/', 'scripts/', 'bench/', 'examples/', 'switchyard.d.ts'];
const CHECKED = /\.(?:[cm]?[jt]s|json|sh)$/;
// A marker is a line comment of its own (`//` or `#`), so a string that names it is not one.
const START = /^\s*(?:\/\/|#)\s*line-length:\s*data-table\b/;
const END = /^\s*(?:\/\/|#)\s*line-length:\s*end\b/;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()[\]{}'"`]+/gi;
const WORD = /[\w$#\u0080-\uffff]/;
// After these words an expression starts, so a `/` opens a regex; after any other word or a number it divides.
const BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/** Counts literal characters per line: code points, so `…` counts one as in the line length. */
class Counter {
  constructor() {
    this.counts = [0];
  }
  add(text, from, to) {
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c === 10) this.counts.push(0);
      else if (c !== 13 && !(c >= 0xdc00 && c <= 0xdfff)) this.counts[this.counts.length - 1]++;
    }
  }
  newline() {
    this.counts.push(0);
  }
  /** A comment's text from..to: only its URLs are literal; its line breaks still count. */
  comment(text, from, to) {
    const body = text.slice(from, to);
    let at = 0;
    for (const m of body.matchAll(URL)) {
      for (let k = at; k < m.index; k++) if (body[k] === '\n') this.newline();
      this.add(body, m.index, m.index + m[0].length);
      at = m.index + m[0].length;
    }
    for (let k = at; k < body.length; k++) if (body[k] === '\n') this.newline();
  }
}

/** Literal characters per line of a JavaScript, TypeScript or JSON text. */
export function jsLiteralChars(text) {
  const out = new Counter();
  const n = text.length;
  // brace depth inside each open ${…}, innermost last
  const substitutions = [];
  let prev = '';
  let i = 0;

  /** Scans template text from j (after ` or }); returns where the code resumes. */
  function templateText(j) {
    const start = j;
    while (j < n) {
      const c = text[j];
      if (c === '\\') j += 2;
      else if (c === '`') {
        out.add(text, start, j);
        prev = 'word';
        return j + 1;
      } else if (c === '$' && text[j + 1] === '{') {
        out.add(text, start, j);
        substitutions.push(0);
        prev = '(';
        return j + 2;
      } else j++;
    }
    out.add(text, start, n);
    return n;
  }

  if (text.startsWith('#!')) {
    while (i < n && text[i] !== '\n') i++;
  }
  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      out.newline();
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '/' && text[i + 1] === '/') {
      let j = i + 2;
      while (j < n && text[j] !== '\n') j++;
      out.comment(text, i, j);
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      let j = text.indexOf('*/', i + 2);
      j = j < 0 ? n : j + 2;
      out.comment(text, i, j);
      i = j;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out.add(text, i + 1, Math.min(j, n));
      i = j + (text[j] === c ? 1 : 0);
      prev = 'word';
    } else if (c === '`') i = templateText(i + 1);
    else if (c === '{') {
      if (substitutions.length) substitutions[substitutions.length - 1]++;
      prev = c;
      i++;
    } else if (c === '}') {
      const top = substitutions.length - 1;
      if (top >= 0 && substitutions[top] === 0) {
        substitutions.pop();
        i = templateText(i + 1);
      } else {
        if (top >= 0) substitutions[top]--;
        prev = c;
        i++;
      }
    } else if (c === '/') {
      // A regex where an expression may start, if it closes on this line; otherwise a division.
      let j = i + 1;
      let closed = false;
      if (prev !== 'word' && prev !== ')' && prev !== ']') {
        let inClass = false;
        while (j < n && text[j] !== '\n') {
          const d = text[j];
          if (d === '\\') {
            if (text[j + 1] === '\n') break;
            j += 2;
            continue;
          }
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) {
            closed = true;
            break;
          }
          j++;
        }
      }
      if (closed) {
        out.add(text, i + 1, j);
        j++;
        while (j < n && /[a-z]/i.test(text[j])) j++;
        i = j;
        prev = 'word';
      } else {
        prev = c;
        i++;
      }
    } else if (WORD.test(c)) {
      let j = i + 1;
      while (j < n && WORD.test(text[j])) j++;
      prev = BEFORE_EXPRESSION.has(text.slice(i, j)) ? '(' : 'word';
      i = j;
    } else {
      prev = c;
      i++;
    }
  }
  return out.counts;
}

/** Literal characters per line of a shell script: quoted text, here-document bodies and URLs in comments. */
export function shLiteralChars(text) {
  const out = new Counter();
  const n = text.length;
  const heredocs = [];
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      out.newline();
      i++;
      // here-document bodies start on the next line and end at their delimiter line
      for (const { word, tabs } of heredocs.splice(0)) {
        while (i < n) {
          let end = text.indexOf('\n', i);
          if (end < 0) end = n;
          const line = text.slice(i, end);
          if ((tabs ? line.replace(/^\t+/, '') : line) === word) {
            i = end;
            break;
          }
          out.add(text, i, end);
          if (end < n) out.newline();
          i = end + 1;
        }
      }
    } else if (c === '#' && (i === 0 || /[\s;(|&]/.test(text[i - 1]))) {
      let j = i + 1;
      while (j < n && text[j] !== '\n') j++;
      out.comment(text, i, j);
      i = j;
    } else if (c === '\\') i += text[i + 1] === '\n' ? 1 : 2;
    else if (c === "'" || (c === '$' && text[i + 1] === "'")) {
      const escapes = c === '$';
      let j = i + (escapes ? 2 : 1);
      const start = j;
      while (j < n && text[j] !== "'") j += escapes && text[j] === '\\' ? 2 : 1;
      out.add(text, start, Math.min(j, n));
      i = j + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out.add(text, i + 1, Math.min(j, n));
      i = j + 1;
    } else if (c === '<' && text[i + 1] === '<' && text[i + 2] !== '<') {
      const m = /^<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/.exec(text.slice(i, i + 80));
      if (m) {
        heredocs.push({ word: m[3], tabs: m[1] === '-' });
        i += m[0].length;
      } else i += 2;
    } else i++;
  }
  return out.counts;
}

/**
 * The too-long lines of one file's text, and any data-table region left open. `kind` is 'sh' for a shell
 * script, else the text is read as JavaScript, TypeScript or JSON.
 */
export function longLines(text, max = MAX, kind = 'js') {
  const found = [];
  let open;
  const lines = text.split('\n');
  let literal;
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
    if (length <= max) continue;
    literal ??= kind === 'sh' ? shLiteralChars(text) : jsLiteralChars(text);
    const withoutLiterals = length - (literal[i] ?? 0);
    if (withoutLiterals > max) found.push({ line: i + 1, length, withoutLiterals });
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
    const result = longLines(text, MAX, file.endsWith('.sh') ? 'sh' : 'js');
    for (const { line, length, withoutLiterals } of result.found) {
      if (summary) continue;
      const literal = withoutLiterals < length ? `; ${withoutLiterals} without its literal text` : '';
      console.log(`${file}:${line}: ${length} characters (at most ${MAX}${literal})`);
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
    console.log(
      `${total} line(s) longer than ${MAX} characters without their literal text in ${files.length} files checked` +
        regions,
    );
    return 1;
  }
  console.log(`line length: ${files.length} files checked, no line longer than ${MAX} characters but for literal text`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));

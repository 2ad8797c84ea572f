// Splits the long string literals, template literals and regular expressions
// that keep a line over 120 characters after Biome's formatter, so that the
// formatter can then wrap them: 'a b' becomes 'a ' + 'b' (cut after a space),
// a template is cut at a space outside its ${…}, and /re/f becomes
// new RegExp('…' + String.raw`…`, 'f') with the same source. The value of
// every literal stays exactly the same. Tagged templates, literals that span
// lines and strings without a space are left alone (quote those in a data
// table, see check-line-length.mjs, or split them by hand).
//
// Usage: node scripts/split-long-strings.mjs [file ...]
// Without files it reads the .ts/.mjs/.js files the line length check reads.
// It splits, runs `biome format --write` on the files it changed, and repeats
// (at most three rounds); review the result with `git diff`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MAX = 120;
const BIOME = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));
const ROOTS = ['src/', 'plugins/', 'webview/', 'test/', 'scripts/', 'bench/', 'examples/', 'switchyard.d.ts'];
const JS = /\.(?:[cm]?[jt]s)$/;
const REGEX_MAY_FOLLOW = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', ';']);

/** The literals of one line (which must start outside any literal or comment): { start, end, kind, cuts }. */
function literals(line) {
  const out = [];
  let last = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '/' && line[i + 1] === '/') break;
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== c; j++) if (line[j] === '\\') j++;
      if (j >= line.length) return out;
      const cuts = [];
      for (let k = i + 1; k < j; k++) if (line[k] === ' ' && line[k - 1] !== '\\') cuts.push(k + 1);
      out.push({ start: i, end: j + 1, kind: c, cuts });
      i = j;
      last = 'x';
    } else if (c === '`') {
      const cuts = [];
      let j = i + 1;
      let depth = 0;
      for (; j < line.length; j++) {
        const d = line[j];
        if (depth === 0) {
          if (d === '\\') j++;
          else if (d === '`') break;
          else if (d === '$' && line[j + 1] === '{') {
            depth = 1;
            j++;
          } else if (d === ' ') cuts.push(j + 1);
        } else if (d === '{') depth++;
        else if (d === '}') depth--;
        else if (d === "'" || d === '"' || d === '`') {
          // A literal inside ${…}: skip it whole (a nested template without ${} of its own).
          let k = j + 1;
          for (; k < line.length && line[k] !== d; k++) if (line[k] === '\\') k++;
          j = k;
        }
      }
      if (j >= line.length) return out;
      const tagged = i > 0 && /[\w$.\])]/.test(line[i - 1]);
      if (!tagged) out.push({ start: i, end: j + 1, kind: '`', cuts });
      i = j;
      last = 'x';
    } else if (c === '/' && REGEX_MAY_FOLLOW.has(last)) {
      let j = i + 1;
      let inClass = false;
      for (; j < line.length; j++) {
        if (line[j] === '\\') j++;
        else if (line[j] === '[') inClass = true;
        else if (line[j] === ']') inClass = false;
        else if (line[j] === '/' && !inClass) break;
      }
      if (j >= line.length) return out;
      while (/[a-z]/.test(line[j + 1] ?? '')) j++;
      out.push({ start: i, end: j + 1, kind: '/', cuts: [] });
      i = j;
      last = 'x';
    } else if (!/\s/.test(c)) last = /[\w$)\]]/.test(c) ? 'x' : c;
  }
  return out;
}

/** Cuts `body` into pieces of at most `chunk` characters at the allowed positions (relative to body). */
function cut(body, positions, chunk) {
  const size = body.length <= chunk ? Math.floor(body.length / 2) + 12 : chunk;
  const pieces = [];
  let start = 0;
  while (body.length - start > size) {
    const fits = positions.filter((p) => p > start && p < start + size);
    if (!fits.length) break;
    const at = fits[fits.length - 1];
    pieces.push(body.slice(start, at));
    start = at;
  }
  pieces.push(body.slice(start));
  return pieces;
}

/** The line with its longest literal split, or the line itself. */
export function splitLine(line) {
  if ([...line].length <= MAX) return line;
  const found = literals(line);
  if (!found.length) return line;
  const lit = found.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a));
  if (lit.end - lit.start < 30) return line;
  const indent = line.length - line.trimStart().length;
  const chunk = Math.max(40, MAX - indent - 14);
  const text = line.slice(lit.start, lit.end);
  let replacement;
  if (lit.kind === '/') {
    const close = text.lastIndexOf('/');
    const source = text.slice(1, close);
    const flags = text.slice(close + 1);
    if (source.includes('`') || source.includes('${')) return line;
    // A cut may not follow an escaping backslash; prefer a cut after a space.
    const escaped = (k) => {
      let n = 0;
      for (let m = k - 1; m >= 0 && source[m] === '\\'; m--) n++;
      return n % 2 === 1;
    };
    const allowed = [];
    for (let k = 20; k < source.length; k++) if (!escaped(k)) allowed.push(k);
    const spaced = allowed.filter((k) => source[k - 1] === ' ');
    const pieces = cut(source, spaced.length > 1 ? spaced : allowed, chunk);
    if (pieces.length === 1) return line;
    const quote = (p) => (p.includes('\\') ? `String.raw\`${p}\`` : p.includes("'") ? `\`${p}\`` : `'${p}'`);
    replacement = `new RegExp(${pieces.map(quote).join(' + ')}${flags ? `, '${flags}'` : ''})`;
  } else {
    const body = text.slice(1, -1);
    const pieces = cut(
      body,
      lit.cuts.map((p) => p - lit.start - 1),
      chunk,
    );
    if (pieces.length === 1) return line;
    replacement = pieces.map((p) => lit.kind + p + lit.kind).join(' + ');
  }
  return line.slice(0, lit.start) + replacement + line.slice(lit.end);
}

/** Which lines start outside a literal or a comment (a small scanner, as in wrap-long-comments.mjs). */
function codeStarts(text) {
  const starts = [true];
  let state = 'code';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      if (state === 'line') state = 'code';
      starts.push(state === 'code');
    } else if (state === 'code') {
      if (c === '/' && text[i + 1] === '/') state = 'line';
      else if (c === '/' && text[i + 1] === '*') state = 'block';
      else if (c === '`') state = '`';
    } else if (state === 'block' && c === '*' && text[i + 1] === '/') state = 'code';
    else if (state === '`') {
      if (c === '\\') i++;
      else if (c === '`') state = 'code';
    }
  }
  return starts;
}

export function splitStrings(text) {
  const starts = codeStarts(text);
  let changed = 0;
  const lines = text.split('\n').map((line, i) => {
    if (!starts[i]) return line;
    const next = splitLine(line);
    if (next !== line) changed++;
    return next;
  });
  return { text: lines.join('\n'), changed };
}

function defaultFiles() {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...ROOTS], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0'))].filter((f) => f && JS.test(f));
}

function main(argv) {
  let files = argv.length ? argv : defaultFiles();
  for (let round = 1; round <= 3 && files.length; round++) {
    const changed = [];
    for (const file of files) {
      const { text, changed: n } = splitStrings(readFileSync(file, 'utf8'));
      if (n) {
        writeFileSync(file, text);
        changed.push(file);
        console.log(`round ${round}: ${file}: ${n} line(s) split`);
      }
    }
    if (changed.length) execFileSync(BIOME, ['format', '--write', ...changed], { stdio: 'ignore' });
    files = changed;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));

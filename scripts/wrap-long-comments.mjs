// Rewraps comment lines longer than 120 characters, which Biome's formatter
// leaves as they are: `//` lines, `*` lines of a block comment, a one-line
// `/** … */` (it becomes a block), and `#` lines of shell scripts. What does
// not fit moves to the start of the next line of the same comment paragraph,
// and so on until a line fits; a list item, a tag (`@param`), an empty
// comment line or a line indented deeper ends the paragraph. Code, strings
// and template literals are never changed (a small scanner tells a comment
// from a `//` inside a string). A word longer than the line stays whole.
//
// Usage: node scripts/wrap-long-comments.mjs [file ...]
// Without files it rewraps the files the line length check reads.
// Prints what it changed; review with `git diff`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const MAX = 120;
const ROOTS = ['src/', 'plugins/', 'webview/', 'test/', 'scripts/', 'bench/', 'examples/', 'switchyard.d.ts'];
const JS = /\.(?:[cm]?[jt]s)$/;
const SHELL = /\.sh$/;
const DIRECTIVE = /biome-ignore|@ts-|eslint-|prettier-ignore|line-length:|sourceMappingURL|^\s*\/\/\//;
const REGEX_MAY_FOLLOW = new Set([
  '',
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);

/** For each line of JavaScript or TypeScript source: 'code', 'block' (inside a block comment) or 'literal'. */
export function lineStartStates(text) {
  const states = ['code'];
  let state = 'code';
  let inClass = false;
  let depth = 0;
  let last = '';
  const templates = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '\n') {
      if (state === 'line' || state === 'regex') state = 'code';
      states.push(state === 'code' || state === 'block' ? state : 'literal');
      continue;
    }
    if (state === 'code') {
      if (c === '/' && next === '/') state = 'line';
      else if (c === '/' && next === '*') state = 'block';
      else if (c === "'" || c === '"' || c === '`') state = c;
      else if (c === '/' && REGEX_MAY_FOLLOW.has(last)) {
        state = 'regex';
        inClass = false;
      } else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (templates.length && depth === templates[templates.length - 1]) {
          templates.pop();
          state = '`';
        }
      }
      if (state === 'line' || state === 'block') i++;
      else if (!/\s/.test(c)) last = /[\w$)\]]/.test(c) ? 'x' : c;
    } else if (state === 'block') {
      if (c === '*' && next === '/') {
        state = 'code';
        i++;
      }
    } else if (state === 'regex') {
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) {
        state = 'code';
        last = 'x';
      }
    } else if (state === "'" || state === '"') {
      if (c === '\\') i++;
      else if (c === state) {
        state = 'code';
        last = 'x';
      }
    } else if (state === '`') {
      if (c === '\\') i++;
      else if (c === '`') {
        state = 'code';
        last = 'x';
      } else if (c === '$' && next === '{') {
        templates.push(depth);
        depth++;
        state = 'code';
        last = '{';
        i++;
      }
    }
  }
  return states;
}

const width = (s) => [...s].length;

/** The comment line's prefix (indent, marker, hanging indent of a list item) and its text, or undefined. */
function commentParts(line, state, shell) {
  if (DIRECTIVE.test(line)) return undefined;
  const m = shell
    ? /^(\s*#+ )(.*)$/.exec(line)
    : state === 'block'
      ? /^(\s*\* )(.*)$/.exec(line)
      : state === 'code'
        ? /^(\s*\/\/ )(.*)$/.exec(line)
        : null;
  if (!m || (shell && line.trimStart().startsWith('#!'))) return undefined;
  if (state === 'block' && m[2].includes('*/')) return undefined;
  return { prefix: m[1], text: m[2] };
}

const LIST_ITEM = /^(?:[-*+] |\d+[.)] |@|\||```)/;

/** Splits `text` after `prefix` into lines of at most MAX characters (a too-long word stays whole). */
function fill(prefix, hang, text) {
  const words = text.split(' ').filter((w) => w !== '');
  const out = [];
  let current = '';
  for (const word of words) {
    const lead = out.length ? prefix + hang : prefix;
    if (current && width(`${lead}${current} ${word}`) > MAX) {
      out.push(lead + current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push((out.length ? prefix + hang : prefix) + current);
  return out;
}

/** Rewraps the long comment lines of one file's text; returns the new text and how many long lines it rewrapped. */
export function wrapComments(text, shell = false) {
  const lines = text.split('\n');
  const states = shell ? lines.map(() => 'code') : lineStartStates(text);
  const out = [];
  let rewrapped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (width(line) <= MAX) {
      out.push(line);
      continue;
    }
    const oneLineDoc = shell || states[i] !== 'code' ? null : /^(\s*)\/\*\* (.*) \*\/$/.exec(line);
    if (oneLineDoc && !DIRECTIVE.test(line)) {
      out.push(`${oneLineDoc[1]}/**`, ...fill(`${oneLineDoc[1]} * `, '', oneLineDoc[2]), `${oneLineDoc[1]} */`);
      rewrapped++;
      continue;
    }
    const parts = commentParts(line, states[i], shell);
    if (!parts) {
      out.push(line);
      continue;
    }
    rewrapped++;
    const hang = /^(?:[-*+] |\d+[.)] )/.exec(parts.text)?.[0].replace(/./g, ' ') ?? '';
    let text = parts.text;
    // Carry what does not fit into the following lines of the same paragraph, while they overflow.
    for (;;) {
      const filled = fill(parts.prefix, hang, text);
      const next = i + 1 < lines.length ? commentParts(lines[i + 1], states[i + 1], shell) : undefined;
      const continues =
        filled.length > 1 &&
        next !== undefined &&
        next.prefix === parts.prefix &&
        next.text.startsWith(hang) &&
        !next.text.slice(hang.length).startsWith(' ') &&
        next.text.trim() !== '' &&
        !LIST_ITEM.test(next.text);
      if (!continues) {
        out.push(...filled);
        break;
      }
      out.push(...filled.slice(0, -1));
      const rest = filled[filled.length - 1].slice(parts.prefix.length + hang.length);
      text = `${hang}${rest} ${next.text.slice(hang.length)}`;
      i++;
    }
  }
  return { text: out.join('\n'), rewrapped };
}

function defaultFiles() {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...ROOTS], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0'))].filter((f) => f && (JS.test(f) || SHELL.test(f)));
}

function main(argv) {
  const files = argv.length ? argv : defaultFiles();
  let total = 0;
  for (const file of files) {
    const before = readFileSync(file, 'utf8');
    const { text, rewrapped } = wrapComments(before, SHELL.test(file));
    if (text !== before) {
      writeFileSync(file, text);
      total += rewrapped;
      console.log(`${file}: ${rewrapped} comment line(s) rewrapped`);
    }
  }
  console.log(`${total} comment line(s) rewrapped in ${files.length} files`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));

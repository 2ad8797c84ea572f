import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const SCRIPT = resolve('scripts/wrap-long-comments.mjs');
const words = (n: number, word = 'word'): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('comment rewrapping (scripts/wrap-long-comments.mjs)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-wrap-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  /** Writes the file, runs the script on it as a real process, and returns the file's new lines. */
  const wrap = async (name: string, lines: string[]): Promise<string[]> => {
    const path = join(dir, name);
    await writeFile(path, `${lines.join('\n')}\n`);
    await promisify(execFile)(process.execPath, [SCRIPT, path]);
    return (await readFile(path, 'utf8')).split('\n').slice(0, -1);
  };
  const longest = (lines: string[]): number => Math.max(...lines.map((l) => [...l].length));
  const text = (lines: string[], marker: RegExp): string =>
    lines
      .map((l) => l.replace(marker, ''))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();

  it('rewraps a long // line into the next line of its paragraph, keeping every word in order', async () => {
    const before = [
      `  // ${words(30)}`,
      `  // ${words(3, 'next')}`,
      '  //',
      `  // ${words(2, 'other')}`,
      'const x = 1;',
    ];
    const after = await wrap('a.ts', before);
    assert.ok(longest(after) <= 120, after.join('\n'));
    assert.equal(text(after.slice(0, -3), /^\s*\/\/ ?/), `${words(30)} ${words(3, 'next')}`);
    assert.deepEqual(
      after.slice(-3),
      ['  //', `  // ${words(2, 'other')}`, 'const x = 1;'],
      'the next paragraph is kept',
    );
    assert.ok(after.slice(0, -3).every((l) => l.startsWith('  // ')));
  });

  it('turns a long one-line /** */ into a block, and wraps the * lines of a block', async () => {
    const after = await wrap('b.ts', [
      `/** ${words(25)} */`,
      'export const a = 1;',
      '/**',
      ` * ${words(25, 'w')}`,
      ' */',
    ]);
    assert.ok(longest(after) <= 120, after.join('\n'));
    assert.equal(after[0], '/**');
    const close = after.indexOf(' */');
    assert.equal(text(after.slice(1, close), /^ \* /), words(25));
    assert.equal(after[close + 1], 'export const a = 1;');
  });

  it('never changes strings, template literals or regexes that hold // or *', async () => {
    const code = [
      `const s = '// ${'x'.repeat(130)}';`,
      'const t = `',
      `// ${words(30)}`,
      `* ${words(30)}`,
      '`;',
      `const r = /\\/\\/ ${'y'.repeat(120)}/;`,
    ];
    assert.deepEqual(await wrap('c.ts', code), code);
  });

  it('keeps list items and deeper-indented lines as their own lines, and a word longer than a line whole', async () => {
    const url = `https://example.invalid/${'p'.repeat(130)}`;
    const after = await wrap('d.ts', [`// - ${words(30)}`, '// - second item', `// ${url}`, '//     indented code']);
    assert.ok(after.includes('// - second item'));
    assert.ok(after.includes(`// ${url}`));
    assert.ok(after.includes('//     indented code'));
    const item = after.slice(0, after.indexOf('// - second item'));
    assert.ok(
      item.slice(1).every((l) => l.startsWith('//   ')),
      `hanging indent: ${item.join('\n')}`,
    );
  });

  it('rewraps # comments of shell scripts but not the shebang', async () => {
    const shebang = `#!/usr/bin/env bash ${'x'.repeat(120)}`;
    const after = await wrap('e.sh', [shebang, `# ${words(30)}`, 'echo ok']);
    assert.equal(after[0], shebang);
    assert.ok(longest(after.slice(1)) <= 120);
    assert.equal(after[after.length - 1], 'echo ok');
  });
});

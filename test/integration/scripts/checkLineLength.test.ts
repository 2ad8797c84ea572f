import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const SCRIPT = resolve('scripts/check-line-length.mjs');

/** Runs the checker as `npm run lint` does, on the given files. */
async function check(...files: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, ...files]);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, out: failed.stdout ?? '' };
  }
}

describe('line length check (scripts/check-line-length.mjs)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-line-length-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  const file = async (name: string, lines: string[]): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, `${lines.join('\n')}\n`);
    return path;
  };

  it('passes 120 characters and fails 121, naming the file, the line and its length', async () => {
    const ok = await file('ok.ts', [`const a = ${'x'.repeat(120 - 11)};`]);
    assert.equal((await check(ok)).code, 0);
    const long = await file('long.ts', ['// fine', `const a = ${'x'.repeat(121 - 11)};`]);
    const result = await check(ok, long);
    assert.equal(result.code, 1);
    assert.match(result.out, new RegExp(`${long.replace(/[.\\]/g, '\\$&')}:2: 121 characters \\(at most 120\\)`));
    assert.match(result.out, /1 line\(s\) longer than 120 characters without their literal text in 2 files checked/);
  });

  it('counts characters, not UTF-16 units', async () => {
    assert.equal((await check(await file('wide.ts', [`// ${'…✖'.repeat(58)}`]))).code, 0);
    assert.equal((await check(await file('wider.ts', [`// ${'…✖'.repeat(59)}`]))).code, 1);
  });

  it('passes a line whose excess is the text of a string, template or regex literal', async () => {
    const literals = await file('literals.ts', [
      `const single = '${'s '.repeat(80)}it\\'s';`,
      `const double = "${'d '.repeat(80)}'q'";`,
      `const template = \`${'t '.repeat(60)}\${single}${' u'.repeat(30)}\`;`,
      `export const pattern = /${'(?:a|b) '.repeat(25)}\\/x[/]/gi;`,
      `assert.match(out, /^${'word '.repeat(30)}$/m, 'and a message ${'m'.repeat(40)}');`,
      'const page = `',
      `${'a line of a multi-line template '.repeat(5)}`,
      '`;',
      `const url = 'https://example.test/${'p'.repeat(130)}'; // a // inside a string opens no comment`,
      `// see https://example.test/${'q'.repeat(130)}`,
      `calls(${'argument, '.repeat(11)}'${'s'.repeat(40)}');`, // 120 characters without the string's text
    ]);
    const result = await check(literals);
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /no line longer than 120 characters but for literal text/);
  });

  it('fails a long comment, a long code line and a literal line whose code alone is too long', async () => {
    const lines = [
      `// ${'a long comment that says a lot '.repeat(4)}`,
      `/* it's a block comment with 'quotes' that are no strings ${'c'.repeat(80)} */`,
      `const total = ${'value + '.repeat(15)}1;`,
      `const ratio = a / b / ${'c / '.repeat(30)}d;`,
      `called(${'argument, '.repeat(11)}'${'s'.repeat(40)}');`,
      `const t = \`${'${someLongExpressionName} '.repeat(5)}\${${'x + '.repeat(5)}y}\`;`,
      ' * a block comment line',
      `   * ${'z'.repeat(130)}`,
    ];
    lines.splice(6, 0, '/**');
    lines.push(' */');
    const result = await check(await file('code.ts', lines));
    assert.equal(result.code, 1);
    for (const line of [1, 2, 3, 4, 5, 6, 9]) assert.match(result.out, new RegExp(`code\\.ts:${line}: `));
    assert.match(result.out, /code\.ts:5: 161 characters \(at most 120; 121 without its literal text\)/);
    assert.match(result.out, /7 line\(s\) longer than 120 characters without their literal text/);
  });

  it('reads shell scripts by their own quoting: quoted text and here-documents pass, words and comments fail', async () => {
    const script = await file('script.sh', [
      '#!/usr/bin/env bash',
      `echo "${'quoted text '.repeat(12)}"`,
      `printf '%s\\n' '${'single quoted '.repeat(10)}'`,
      'cat <<EOF',
      `${'a here-document line '.repeat(8)}, don't`,
      'EOF',
      `echo ${'unquoted '.repeat(15)}`,
      `# ${'a comment '.repeat(13)}`,
      `echo $((1 << 2)) ${'word '.repeat(25)}`,
    ]);
    const result = await check(script);
    assert.equal(result.code, 1);
    assert.deepEqual(
      [...result.out.matchAll(/script\.sh:(\d+):/g)].map((m) => Number(m[1])),
      [7, 8, 9],
    );
  });

  it('skips the lines of a data table between its markers, and only those', async () => {
    const table = await file('table.ts', [
      '// line-length: data-table, recorded sample numbers kept one row per line',
      `  [${'1234, '.repeat(40)}],`,
      '// line-length: end',
      `const after = [${'5678, '.repeat(40)}];`,
    ]);
    const result = await check(table);
    assert.equal(result.code, 1);
    assert.match(result.out, /table\.ts:4: 257 characters/);
    assert.doesNotMatch(result.out, /table\.ts:2:/);
  });

  it('fails on a data-table region left open, and a string naming the marker opens none', async () => {
    const open = await file('open.sh', ['# line-length: data-table, a shell table', `echo ${'z'.repeat(130)}`]);
    const result = await check(open);
    assert.equal(result.code, 1);
    assert.match(result.out, /open\.sh:1: a 'line-length: data-table' region without 'line-length: end'/);
    const quoted = await file('quoted.ts', ["const marker = '// line-length: data-table';", `// ${'w'.repeat(130)}`]);
    assert.match((await check(quoted)).out, /quoted\.ts:2: 133 characters/);
  });
});

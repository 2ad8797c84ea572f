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
    const ok = await file('ok.ts', [`const a = '${'x'.repeat(120 - 13)}';`]);
    assert.equal((await check(ok)).code, 0);
    const long = await file('long.ts', ['// fine', `const a = '${'x'.repeat(121 - 13)}';`]);
    const result = await check(ok, long);
    assert.equal(result.code, 1);
    assert.match(result.out, new RegExp(`${long.replace(/[.\\]/g, '\\$&')}:2: 121 characters \\(at most 120\\)`));
    assert.match(result.out, /1 line\(s\) longer than 120 characters in 2 files checked/);
  });

  it('counts characters, not UTF-16 units', async () => {
    assert.equal((await check(await file('wide.ts', [`// ${'…✖'.repeat(58)}`]))).code, 0);
    assert.equal((await check(await file('wider.ts', [`// ${'…✖'.repeat(59)}`]))).code, 1);
  });

  it('skips the lines of a data table between its markers, and only those', async () => {
    const table = await file('table.ts', [
      '// line-length: data-table, recorded error messages quoted whole',
      `  ['${'e'.repeat(200)}', 'transient'],`,
      '// line-length: end',
      `const after = '${'y'.repeat(130)}';`,
    ]);
    const result = await check(table);
    assert.equal(result.code, 1);
    assert.match(result.out, /table\.ts:4: 147 characters/);
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

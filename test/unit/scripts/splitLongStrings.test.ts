import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const SCRIPT = resolve('scripts/split-long-strings.mjs');
const words = (n: number, word = 'word'): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('string splitting (scripts/split-long-strings.mjs)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-split-'));
    // The project's formatter settings, for files outside the checkout.
    const config = JSON.parse(await readFile('biome.json', 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    delete config.files;
    delete config.vcs;
    await writeFile(join(dir, 'biome.json'), JSON.stringify(config));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  /** Runs the script (which also runs Biome's formatter) on a module and imports what it exports, before and after. */
  const roundTrip = async (source: string): Promise<{ before: unknown; after: unknown; text: string }> => {
    const original = join(dir, 'original.mjs');
    const split = join(dir, 'split.mjs');
    await writeFile(original, source);
    await writeFile(split, source);
    await promisify(execFile)(process.execPath, [SCRIPT, 'split.mjs'], { cwd: dir });
    const text = await readFile(split, 'utf8');
    const before = ((await import(original)) as { value: unknown }).value;
    const after = ((await import(split)) as { value: unknown }).value;
    return { before, after, text };
  };
  const longest = (text: string): number => Math.max(...text.split('\n').map((l) => [...l].length));

  it('splits strings and templates at spaces into lines of at most 120 characters, with the same values', async () => {
    const source = [
      'const n = 7;',
      `export const value = ['${words(30)}', \`${words(12)} \${n + 1} ${words(12, 'more')} \${'x y'}\`, "${words(25, 'q')}"];`,
      '',
    ].join('\n');
    const { before, after, text } = await roundTrip(source);
    assert.deepEqual(after, before);
    assert.ok(longest(text) <= 120, text);
    assert.ok(text.includes("' +"), `split with +: ${text}`);
  });

  it('turns a long regular expression into new RegExp with the same source and flags', async () => {
    const source = `export const value = /^${words(20)}\\/\\(x\\) [a-z]+ \\d+ 'q' ${words(5)}$/im;\n`;
    const { before, after, text } = await roundTrip(source);
    assert.ok(text.includes('new RegExp('), text);
    assert.ok(longest(text) <= 120, text);
    const [b, a] = [before as RegExp, after as RegExp];
    assert.equal(a.source, b.source);
    assert.equal(a.flags, b.flags);
  });

  it('leaves tagged templates, strings without spaces and lines that fit', async () => {
    const source = [`export const value = [String.raw\`${words(30)}\`, '${'x'.repeat(130)}', 'short one'];`, ''].join(
      '\n',
    );
    const { before, after, text } = await roundTrip(source);
    assert.deepEqual(after, before);
    assert.ok(text.includes(`String.raw\`${words(30)}\``));
    assert.ok(text.includes(`'${'x'.repeat(130)}'`));
  });
});

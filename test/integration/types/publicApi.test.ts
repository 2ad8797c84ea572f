import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The type test test/types/publicApi.ts bites: copies of src/api.ts with one
// member added, removed or changed, each checked by the same type test with
// the project's tsc, fail; the unchanged copy passes.

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const read = (path: string): string => readFileSync(join(REPO, path), 'utf8');
const API = read('src/api.ts');
const TYPE_TEST = read('test/types/publicApi.ts');

interface Variant {
  name: string;
  api?: (text: string) => string;
}
const swap =
  (from: string, to: string) =>
  (text: string): string => {
    assert.ok(text.includes(from), `the fixture expects ${JSON.stringify(from)} in the file`);
    return text.replace(from, to);
  };

const VARIANTS: Variant[] = [
  { name: 'unchanged' },
  { name: 'api-member-removed', api: swap('  readonly acceptance?: string;\n', '') },
  {
    name: 'api-member-added',
    api: swap('  readonly acceptance?: string;\n', '  readonly acceptance?: string;\n  readonly priority?: number;\n'),
  },
  { name: 'api-type-changed', api: swap('  killGraceMs?: number;', '  killGraceMs?: string;') },
  { name: 'api-member-made-optional', api: swap('  maxTokens: number;', '  maxTokens?: number;') },
  { name: 'api-settings-member-removed', api: swap('  instructions?: string;\n', '') },
  { name: 'api-value-added', api: (text) => `${text}\nexport { formatUsd } from './core/agent/pricing';\n` },
  {
    name: 'api-value-retyped',
    api: swap(
      'export const API_LANE_SETTING_DOCS: Record<string, LaneSettingDoc>',
      'export const API_LANE_SETTING_DOCS: Record<string, Partial<LaneSettingDoc>>',
    ),
  },
];

describe("the public API type test (src/api.ts's plain types ⇄ the core's schemas)", function () {
  this.timeout(180_000);
  let root: string;
  let output = '';

  before(async function () {
    root = mkdtempSync(join(tmpdir(), 'sy-public-api-'));
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
    const files: string[] = [];
    for (const variant of VARIANTS) {
      const dir = join(root, variant.name);
      const write = (path: string, text: string): void => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      // The copy of src/api.ts re-exports the real core (and loads the real modules it loads on first need).
      write(
        'src/api.ts',
        (variant.api ?? ((t) => t))(API)
          .replaceAll("'./core/", `'${REPO}/src/core/`)
          .replaceAll("'./lanes/", `'${REPO}/src/lanes/`),
      );
      write('test/types/publicApi.ts', TYPE_TEST.replaceAll("from '../../src/core/", `from '${REPO}/src/core/`));
      files.push(`./${variant.name}/test/types/publicApi.ts`);
    }
    const base = JSON.parse(read('tsconfig.json')) as { compilerOptions: object };
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: base.compilerOptions, files }));
    const tsc = join(REPO, 'node_modules', '.bin', 'tsc');
    output = await promisify(execFile)(tsc, ['--noEmit', '-p', root], { cwd: root }).then(
      (r) => r.stdout,
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  const errorsOf = (name: string): string[] =>
    output.split('\n').filter((line) => line.startsWith(`${name}/`) && line.includes('error TS'));

  it('passes on the unchanged copy, and nothing else is broken', () => {
    assert.deepEqual(errorsOf('unchanged'), []);
    const elsewhere = output
      .split('\n')
      .filter((line) => line.includes('error TS') && !VARIANTS.some((v) => line.startsWith(`${v.name}/`)));
    assert.deepEqual(elsewhere, []);
  });

  for (const variant of VARIANTS.slice(1)) {
    it(`fails when ${variant.name.replaceAll('-', ' ')}`, () => {
      const errors = errorsOf(variant.name);
      assert.ok(errors.length > 0, `tsc reported nothing for ${variant.name}:\n${output}`);
      assert.ok(
        errors.some((line) => line.startsWith(`${variant.name}/test/types/publicApi.ts`)),
        errors.join('\n'),
      );
    });
  }

  it('the type test names every type src/api.ts exports', () => {
    const checked = new Set([...TYPE_TEST.matchAll(/\bApi\.(\w+)/g)].map((m) => m[1]));
    const exported = [...API.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);
    assert.ok(exported.length > 20, `only ${exported.length} exported types found`);
    for (const name of exported)
      assert.ok(checked.has(name), `test/types/publicApi.ts does not check the type ${name}`);
  });
});

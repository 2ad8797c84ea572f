import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// switchyard.d.ts is generated from src/api.ts (scripts/build-api.mjs, `npm run build:api`): the committed copy must
// be what the generator makes now, and a copy that differs by one line is reported stale with the command to run.

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const SCRIPT = join(REPO, 'scripts', 'build-api.mjs');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}
const check = (...args: string[]): Promise<Outcome> =>
  promisify(execFile)(process.execPath, [SCRIPT, '--check', ...args], { cwd: REPO }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? String(error),
    }),
  );

describe('switchyard.d.ts, generated from src/api.ts', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sy-api-file-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is up to date with src/api.ts (else: npm run build:api)', async () => {
    const outcome = await check();
    assert.equal(outcome.code, 0, outcome.stderr);
  });

  it('is generated: a plain declaration without schema internals, marked as generated', () => {
    const text = readFileSync(join(REPO, 'switchyard.d.ts'), 'utf8');
    assert.match(text, /^\/\/ Generated from src\/api\.ts by `npm run build:api`/);
    assert.doesNotMatch(text, /z\.core\.|\$strict|\$strip|ZodDefault|ZodNumber|ZodString/);
    assert.doesNotMatch(text, /from '\.\.?\//, 'the file is self-contained');
    assert.match(text, /^export interface LaneManifest \{$/m);
  });

  it('a copy that differs from the generated one is reported stale, with the command that regenerates it', async () => {
    const stale = join(dir, 'switchyard.d.ts');
    const text = readFileSync(join(REPO, 'switchyard.d.ts'), 'utf8');
    assert.ok(text.includes('  killGraceMs?: number;'));
    writeFileSync(stale, text.replace('  killGraceMs?: number;', '  killGraceMs?: string;'));
    const outcome = await check(stale);
    assert.equal(outcome.code, 1);
    assert.match(
      outcome.stderr,
      /switchyard\.d\.ts is stale: it differs from the declaration of src\/api\.ts from line \d+/,
    );
    assert.match(outcome.stderr, /killGraceMs\?: number;.*killGraceMs\?: string;/);
    assert.match(outcome.stderr, /Run `npm run build:api` and commit switchyard\.d\.ts\./);
  });
});

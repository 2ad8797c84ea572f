import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { guardRunDiff } from '../../../src/core/guards/guardRunDiff';
import { captureChange } from '../../../src/core/workspace/worktrees';
import { makePushSetup, type PushSetup } from './gitFixture';

// Fake credentials in the formats the rules look for, assembled at run time so this file holds none.
const GITHUB_TOKEN = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
const NPM_TOKEN = ['npm', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('_');
const L = '<'.repeat(7);
const R = '>'.repeat(7);

const numbered = (n: number, prefix: string): string =>
  `${Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n')}\n`;

describe("the run guard reads the run's own patch", function () {
  this.timeout(30_000);
  let s: PushSetup;
  beforeEach(async () => (s = await makePushSetup()));
  afterEach(async () => s.cleanup());

  it('finds the same secrets and conflict markers (file:line) as diffing the change again', async () => {
    // The base: a long file to edit in the middle, a file with a key that the run renames (a rename is scanned whole),
    // a file the run deletes.
    await s.commit(
      {
        'src/long.ts': numbered(40, '// line'),
        'old/creds.ts': `${numbered(30, '// keep')}export const t = "${GITHUB_TOKEN}";\n`,
        'gone.txt': `${L} left over\n`,
      },
      'base',
    );
    const base = await s.git('rev-parse', 'HEAD');
    const long = numbered(40, '// line').split('\n');
    long.splice(20, 0, `const npm = "${NPM_TOKEN}";`, 'const ok = 1;');
    long.splice(35, 0, `${L} HEAD`, 'ours', '=======', 'theirs', `${R} feature`);
    await s.write({
      'src/long.ts': long.join('\n'),
      'new/creds.ts': `${numbered(30, '// keep')}export const t = "${GITHUB_TOKEN}";\n// moved\n`,
      'docs/café.md': `# café\n\n${R} theirs\n`,
      'bin/blob.bin': Buffer.from([0, 1, 2, 3, 255, 0, 60, 60, 60]).toString('latin1'),
    });
    await rm(join(s.clone, 'old', 'creds.ts'));
    await rm(join(s.clone, 'gone.txt'));
    const change = await captureChange(s.clone, base, 'the run');
    assert.match(change.diff, /^rename to new\/creds\.ts$/m, 'the captured patch detects the rename');

    const diffed = await guardRunDiff({ root: s.clone, cwd: s.clone, base, head: change.headCommit, runId: 'r.1' });
    const fromPatch = await guardRunDiff({
      root: s.clone,
      cwd: s.clone,
      base,
      head: change.headCommit,
      runId: 'r.1',
      patch: change.diff,
    });
    const shape = (r: typeof diffed) => ({
      blocked: r.blocked,
      reason: r.reason,
      results: r.results.map((x) => ({ guard: x.guard, verdict: x.verdict, rule: x.rule, evidence: x.evidence })),
    });
    assert.deepEqual(shape(fromPatch), shape(diffed));
    const where = fromPatch.results.map((r) => `${r.guard}: ${r.evidence.map((e) => `${e.file}:${e.line}`).join(' ')}`);
    assert.deepEqual(where, [
      'conflict-markers: docs/café.md:3 src/long.ts:36 src/long.ts:40',
      'secret-scan: new/creds.ts:31 src/long.ts:21',
    ]);
  });

  it('passes a clean change read from its patch', async () => {
    const base = await s.git('rev-parse', 'HEAD');
    await s.write({ 'src/app.ts': 'export const x = 2;\n' });
    const change = await captureChange(s.clone, base, 'the run');
    const report = await guardRunDiff({
      root: s.clone,
      cwd: s.clone,
      base,
      head: change.headCommit,
      patch: change.diff,
    });
    assert.equal(report.blocked, false);
    assert.deepEqual(
      report.results.map((r) => `${r.guard}:${r.verdict}`),
      ['conflict-markers:pass', 'secret-scan:pass'],
    );
  });
});

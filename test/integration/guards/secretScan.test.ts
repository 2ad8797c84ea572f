import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { guardLogPath } from '../../../src/core/guards/guardLog';
import { guardRunDiff } from '../../../src/core/guards/guardRunDiff';
import { runPrePushGuard } from '../../../src/core/guards/prePushGuard';
import { scanSecrets } from '../../../src/core/guards/secretScan';
import { makePushSetup, type PushSetup } from './gitFixture';

// Fake credentials in the formats the rules look for, assembled at run time so this file holds none.
const GITHUB_TOKEN = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
const NPM_TOKEN = ['npm', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('_');
const DB_URL = ['postgres://admin', 's3cr3tP4ss@db.example.com:5432/app'].join(':');
const DB_PASSWORD = 's3cr3tP4ss';
const PRIVATE_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACCvJ6uJ0e6vHq3bXvH2m0rM5TqzZl8y0xw7o1Qy3Z3vYQAAAJgH0aTmB9Gk',
  '5gAAAAtzc2gtZWQyNTUxOQAAACCvJ6uJ0e6vHq3bXvH2m0rM5TqzZl8y0xw7o1Qy3Z3vYQ',
  'AAAEBs0nb6V4x1n1cG2bK2m3mC8e5vGv5W7vO2tX0m2JrZz68nq4nR7q8erdte8fabSsz',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');
const SECRETS = [GITHUB_TOKEN, NPM_TOKEN, DB_PASSWORD, 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU'];

function assertNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) assert.equal(text.includes(secret), false, `${where} shows a secret`);
}

const lines = (text: string, first = 1) => text.split('\n').map((t, i) => ({ line: first + i, text: t }));

describe('secret scan', function () {
  this.timeout(30_000);

  it('finds keys with file, line and rule, keeping only their length', async () => {
    const files = new Map([
      [
        'src/config.ts',
        lines(`export const a = 1;\nconst token = "${GITHUB_TOKEN}";\nconst npm = "${NPM_TOKEN}";`, 40),
      ],
      ['deploy/key', lines(PRIVATE_KEY, 1)],
      ['src/db.ts', lines(`const url = "${DB_URL}";`, 7)],
    ]);
    const { findings } = await scanSecrets(files);
    assert.deepEqual(
      findings.map((f) => `${f.file}:${f.line}:${f.rule}:${f.length}`),
      [
        'src/config.ts:41:github:40',
        'src/config.ts:42:npm:40',
        `deploy/key:1:privatekey:${PRIVATE_KEY.length}`,
        `src/db.ts:7:database-connection-string:${DB_URL.length + 2}`, // this rule's match includes the quotes
      ],
    );
    assertNoSecret(JSON.stringify(findings), 'the findings');
  });

  it('keeps separate hunks apart and maps lines back to the file', async () => {
    const hunks = [
      { line: 3, text: 'const a = 1;' },
      { line: 90, text: `const t = "${GITHUB_TOKEN}";` },
    ];
    const { findings } = await scanSecrets(new Map([['a.ts', hunks]]));
    assert.deepEqual(
      findings.map((f) => f.line),
      [90],
    );
  });

  it('skips lockfiles and passes ordinary code', async () => {
    const { findings } = await scanSecrets(
      new Map([
        ['package-lock.json', lines(`"resolved": "https://registry.npmjs.org/x", "token": "${NPM_TOKEN}"`)],
        ['src/ok.ts', lines('const password = process.env.DB_PASSWORD;\nconst apiKey = readKey();')],
      ]),
    );
    assert.deepEqual(findings, []);
  });

  describe('in pushes and run diffs (real git)', () => {
    let s: PushSetup;
    beforeEach(async () => (s = await makePushSetup()));
    afterEach(async () => s.cleanup());

    it('blocks a push that adds a key, redacted in every output and in the log', async () => {
      const base = await s.git('rev-parse', 'HEAD');
      const head = await s.commit(
        { 'src/config.ts': `export const x = 1;\nexport const token = "${GITHUB_TOKEN}";\n` },
        'oops',
      );
      const report = await runPrePushGuard({
        cwd: s.clone,
        remote: 'origin',
        stdin: `refs/heads/main ${head} refs/heads/main ${base}\n`,
      });
      assert.equal(report.blocked, true);
      assert.match(
        report.lines.join('\n'),
        /secret-scan: src\/config\.ts:2: possible secret \(github: GITHUB_TOKEN\) \[REDACTED 40 chars\]/,
      );
      assertNoSecret(report.lines.join('\n'), 'stderr');
      assertNoSecret(JSON.stringify(report.results), 'the verdicts');
      assertNoSecret(await readFile(guardLogPath(s.clone), 'utf8'), 'guards.jsonl');
    });

    it('scans only what the push adds: a key already on the remote does not block a later push', async () => {
      await s.commit({ 'old.ts': `const t = "${GITHUB_TOKEN}";\n` }, 'old secret');
      await s.git('push', '-q', '--no-verify', 'origin', 'main');
      const base = await s.git('rev-parse', 'HEAD');
      const head = await s.commit({ 'new.ts': 'export const y = 2;\n' }, 'clean');
      const report = await runPrePushGuard({
        cwd: s.clone,
        remote: 'origin',
        stdin: `refs/heads/main ${head} refs/heads/main ${base}\n`,
      });
      assert.equal(report.blocked, false, report.lines.join('\n'));
    });

    it("gates a run's change (base..head) with a redacted failure reason", async () => {
      const base = await s.git('rev-parse', 'HEAD');
      const head = await s.commit(
        { 'app/settings.py': `DB = "${DB_URL}"\n`, 'README.md': '# project\nmore\n' },
        'run output',
      );
      const report = await guardRunDiff({ root: s.clone, cwd: s.clone, base, head, runId: 't1.1' });
      assert.equal(report.blocked, true);
      assert.match(
        report.reason ?? '',
        /^blocked by guards: secret-scan: app\/settings\.py:1: possible secret \(database-connection-string: PostgreSQLConnection\) \[REDACTED \d+ chars\]$/,
      );
      assertNoSecret(report.reason ?? '', 'the failure reason');
      assert.deepEqual(
        report.results.map((r) => `${r.guard}:${r.verdict}:${r.runId}`),
        ['conflict-markers:pass:t1.1', 'secret-scan:block:t1.1'],
      );
      assertNoSecret(await readFile(join(s.clone, '.switchyard', 'guards.jsonl'), 'utf8'), 'guards.jsonl');

      const clean = await guardRunDiff({ root: s.clone, cwd: s.clone, base, head: base });
      assert.equal(clean.blocked, false);
    });
  });
});

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { defaultCliCommand } from '../../../src/core/guards/installPrePushHook';
import { makeTempDir } from '../../helpers/tempRepo';
import { makePushSetup, type PushSetup } from './gitFixture';

function cli(...args: string[]) {
  return runCli(args);
}

const L = '<'.repeat(7);

describe('guard CLI commands', function () {
  this.timeout(30_000);
  let s: PushSetup;
  beforeEach(async () => (s = await makePushSetup()));
  afterEach(async () => s.cleanup());

  describe('classify-error', () => {
    it('prints the class and rule, or JSON', async () => {
      const text = await cli('classify-error', '--repo', s.clone, 'connect ECONNREFUSED 127.0.0.1:443');
      assert.equal(text.code, 0);
      assert.match(text.out, /^transient \(rule connection-failed\): /);
      const json = await cli(
        'classify-error',
        '--json',
        '--repo',
        s.clone,
        '2 of 3 required status checks are expected.',
      );
      assert.deepEqual(JSON.parse(json.out).class, 'ci-pending');
    });

    it("uses the project's rules, and names a bad rules file", async () => {
      await mkdir(join(s.clone, '.switchyard'), { recursive: true });
      await writeFile(
        join(s.clone, '.switchyard', 'error-rules.json'),
        JSON.stringify({ rules: [{ id: 'ours', class: 'permanent', message: 'flux capacitor' }] }),
      );
      assert.match(
        (await cli('classify-error', '--repo', s.clone, 'the flux capacitor is broken')).out,
        /^permanent \(rule ours\)/,
      );
      await writeFile(join(s.clone, '.switchyard', 'error-rules.json'), '{"rules": 1}');
      const bad = await cli('classify-error', '--repo', s.clone, 'x');
      assert.equal(bad.code, 1);
      assert.match(bad.err, /error-rules\.json: rules: /);
    });

    it('works outside a repository with the built-in rules', async () => {
      const plain = await makeTempDir();
      try {
        assert.match(
          (await cli('classify-error', '--repo', plain.dir, 'HttpError: Bad credentials')).out,
          /^permanent \(rule auth-invalid\)/,
        );
      } finally {
        await plain.cleanup();
      }
    });

    it('needs a message', async () => {
      const r = await cli('classify-error');
      assert.equal(r.code, 2);
      assert.match(r.err, /missing the error message/);
    });
  });

  describe('guard scan', () => {
    it('--full finds markers anywhere in the committed tree, with file and line', async () => {
      assert.deepEqual([(await cli('guard', 'scan', '--full', '--repo', s.clone)).code], [0]);
      await s.commit({ 'deep/dir/file.txt': `ok\n${L} HEAD\n` }, 'bad');
      const r = await cli('guard', 'scan', '--full', '--repo', s.clone);
      assert.equal(r.code, 1);
      assert.match(
        r.out,
        /deep\/dir\/file\.txt:2: conflict marker "<{7} HEAD" committed\n1 conflict marker\(s\) committed/,
      );
    });

    it('checks the branch against its upstream as a push would', async () => {
      await s.git('branch', '--set-upstream-to=origin/main');
      await s.commit({ 'ok.txt': 'ok\n' }, 'ok');
      assert.equal((await cli('guard', 'scan', '--repo', s.clone)).code, 0);
      await s.commit({ 'bad.txt': `${L} HEAD\n` }, 'bad');
      const r = await cli('guard', 'scan', '--repo', s.clone);
      assert.equal(r.code, 1);
      assert.match(r.out, /conflict-markers: bad\.txt:1: conflict marker/);
    });
  });

  describe('guards', () => {
    it('lists recorded verdicts as a table and as JSON', async () => {
      assert.match((await cli('guards', '--repo', s.clone)).out, /No guard verdicts recorded yet/);
      await s.commit({ 'bad.txt': `${L} HEAD\n` }, 'bad');
      await cli('guard', 'scan', '--full', '--repo', s.clone);
      const table = await cli('guards', '--repo', s.clone);
      assert.match(table.out, /^TIME\s+GUARD\s+VERDICT\s+RULE\s+MS\s+EVIDENCE/);
      assert.match(table.out, /conflict-markers\s+block\s+conflict-marker\s+\d+\s+bad\.txt:1: conflict marker/);
      const json = JSON.parse((await cli('guards', '--json', '--repo', s.clone)).out);
      assert.equal(json[0].verdict, 'block');
      assert.equal((await cli('guards', '--limit', '0', '--repo', s.clone)).code, 2);
    });
  });

  it('guard install needs a command when it cannot tell how it was started', async () => {
    assert.equal(defaultCliCommand('/no/such/file.js'), undefined);
    const r = await cli('guard', 'install', '--repo', s.clone);
    assert.equal(r.code, 2);
    assert.match(r.err, /pass --hook-command/);
    assert.equal((await cli('guard', 'frob')).code, 2);
  });
});

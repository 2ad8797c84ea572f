import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadMergePolicy, refPatternMatches, ruleForRef } from '../../../src/core/guards/mergePolicy';
import { makeTempDir } from '../../helpers/tempRepo';

describe('merge policy', () => {
  const table: [pattern: string, ref: string, matches: boolean][] = [
    ['main', 'refs/heads/main', true],
    ['main', 'refs/remotes/origin/main', true],
    ['main', 'refs/heads/main2', false],
    ['feature/*', 'refs/heads/feature/login', true],
    ['feature/*', 'refs/heads/feature/a/b', false],
    ['feature/**', 'refs/heads/feature/a/b', true],
    ['switchyard/**', 'refs/heads/switchyard/t1/2', true],
    ['release/v?', 'refs/heads/release/v2', true],
    ['release/v?', 'refs/heads/release/v10', false],
    ['refs/heads/main', 'refs/heads/main', true],
    ['refs/heads/main', 'refs/remotes/origin/main', false],
    ['a.b', 'refs/heads/aXb', false], // dots are literal
  ];
  for (const [pattern, ref, matches] of table) {
    it(`${pattern} ${matches ? 'matches' : 'does not match'} ${ref}`, () =>
      assert.equal(refPatternMatches(pattern, ref), matches));
  }

  it('picks the first rule whose feature pattern matches the pushed ref', () => {
    const policy = {
      rules: [
        { feature: ['hotfix/*'], base: 'release', allowed: [] },
        { feature: '**', base: 'main', allowed: ['develop'] },
      ],
    };
    assert.equal(ruleForRef(policy, 'refs/heads/hotfix/x')?.base, 'release');
    assert.equal(ruleForRef(policy, 'refs/heads/feature/y')?.base, 'main');
  });

  describe('the policy file', () => {
    let dir: Awaited<ReturnType<typeof makeTempDir>>;
    beforeEach(async () => {
      dir = await makeTempDir();
      await mkdir(join(dir.dir, '.switchyard'));
    });
    afterEach(async () => dir.cleanup());
    const write = (text: string) => writeFile(join(dir.dir, '.switchyard', 'merge-policy.json'), text);

    it('is optional: no file, no policy', async () => {
      assert.equal(await loadMergePolicy(dir.dir), null);
    });

    it('is read with defaults', async () => {
      await write(JSON.stringify({ version: 1, rules: [{ feature: 'feature/*', base: 'main' }] }));
      assert.deepEqual(await loadMergePolicy(dir.dir), {
        version: 1,
        rules: [{ feature: 'feature/*', base: 'main', allowed: [] }],
      });
    });

    const bad: [string, RegExp][] = [
      ['{', /merge-policy\.json: not valid JSON/],
      [JSON.stringify({ rules: [] }), /merge-policy\.json: rules: .*1/],
      [JSON.stringify({ rules: [{ feature: 'x' }] }), /rules\.0\.base/],
      [JSON.stringify({ rules: [{ feature: 'x', base: 'main', alowed: ['y'] }] }), /Unrecognized key: "alowed"/],
    ];
    for (const [text, error] of bad) {
      it(`names the problem in ${text.slice(0, 30)}`, async () => {
        await write(text);
        await assert.rejects(loadMergePolicy(dir.dir), error);
      });
    }
  });
});

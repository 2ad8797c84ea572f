import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadMergePolicy } from '../../../src/core/guards/mergePolicy';
import { makeTempDir } from '../../helpers/tempRepo';

describe('merge policy: the committed config first, the old file as a deprecated fallback', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
    await mkdir(join(dir.dir, '.switchyard'));
  });
  afterEach(async () => dir.cleanup());

  const rules = (base: string) => ({ rules: [{ feature: 'feature/*', base }] });
  const write = (name: string, value: unknown) => writeFile(join(dir.dir, '.switchyard', name), JSON.stringify(value));

  it('reads mergePolicy of .switchyard/config.json, ahead of merge-policy.json', async () => {
    await write('merge-policy.json', rules('old'));
    await write('config.json', { version: 1, mergePolicy: rules('main') });
    const notes: string[] = [];
    const policy = await loadMergePolicy(dir.dir, (n) => notes.push(n));
    assert.equal(policy?.rules[0]?.base, 'main');
    assert.deepEqual(policy?.rules[0]?.allowed, []);
    assert.deepEqual(notes, []);
  });

  it('falls back to merge-policy.json with a deprecation note; neither: no policy', async () => {
    assert.equal(await loadMergePolicy(dir.dir), null);
    await write('config.json', { version: 1 });
    await write('merge-policy.json', rules('old'));
    const notes: string[] = [];
    assert.equal((await loadMergePolicy(dir.dir, (n) => notes.push(n)))?.rules[0]?.base, 'old');
    assert.match(notes[0] ?? '', /merge-policy\.json is deprecated .*move its rules to "mergePolicy" in/);
  });

  it('a wrong type in the committed policy is an error naming the file and the field', async () => {
    await write('config.json', { version: 1, mergePolicy: { rules: [{ feature: 'x', base: 3 }] } });
    await assert.rejects(loadMergePolicy(dir.dir), /config\.json: mergePolicy\.rules\.0\.base/);
  });
});

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { laneContributions } from '../../../src/ui/lanes/laneContributions';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

describe('laneContributions (package.json contributes["switchyard.lanes"])', () => {
  it('reads the lane ids an extension contributes', () => {
    const manifest = { contributes: { 'switchyard.lanes': [{ id: 'gemini' }, { id: 'my-lane-2' }] } };
    assert.deepEqual(laneContributions(manifest), { ok: true, laneIds: ['gemini', 'my-lane-2'] });
  });

  it('an extension without the contribution contributes no lane', () => {
    assert.deepEqual(laneContributions({ contributes: { commands: [] } }), { ok: true, laneIds: [] });
    assert.deepEqual(laneContributions({ name: 'x' }), { ok: true, laneIds: [] });
    assert.deepEqual(laneContributions(undefined), { ok: true, laneIds: [] });
  });

  it('an invalid contribution is a reason naming the entry and the field', () => {
    const badId = laneContributions({ contributes: { 'switchyard.lanes': [{ id: 'My Lane' }] } });
    assert.equal(badId.ok, false);
    assert.match(
      !badId.ok ? badId.reason : '',
      /^contributes\["switchyard\.lanes"\] must be a list of .*0\.id: a lane id/,
    );
    const notList = laneContributions({ contributes: { 'switchyard.lanes': 'gemini' } });
    assert.match(!notList.ok ? notList.reason : '', /\(root\): .*expected array/i);
    const extra = laneContributions({ contributes: { 'switchyard.lanes': [{ id: 'gemini', run: 'rm -rf /' }] } });
    assert.match(!extra.ok ? extra.reason : '', /run/);
  });

  it('the example lane extension contributes its lane and needs no activation event', () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'examples', 'sample-lane', 'package.json'), 'utf8'));
    assert.deepEqual(laneContributions(manifest), { ok: true, laneIds: ['sample-echo'] });
    assert.deepEqual(manifest.activationEvents, []);
  });
});

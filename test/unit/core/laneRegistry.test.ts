import assert from 'node:assert/strict';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { isSwitchyardError } from '../../../src/core/errors';
import { manifest, scriptedLane } from '../../helpers/fakeLanes';

const ok = async () => ({ status: 'succeeded' as const });

describe('LaneRegistry', () => {
  it('registers a lane and removes it again through the returned Disposable', () => {
    const registry = new LaneRegistry();
    let changes = 0;
    registry.onDidChange(() => changes++);
    const handle = registry.register(scriptedLane('alpha', ok));
    assert.deepEqual(
      registry.list().map((l) => l.manifest.id),
      ['alpha'],
    );
    assert.equal(registry.get('alpha')?.manifest.defaultTimeoutMs, 30 * 60_000, 'defaults are filled in');
    handle.dispose();
    handle.dispose();
    assert.equal(registry.get('alpha'), undefined);
    assert.equal(changes, 2);
  });

  it('rejects an invalid manifest with an error naming the field', () => {
    const registry = new LaneRegistry();
    assert.throws(
      () => registry.register({ manifest: { ...manifest('beta'), version: 'one' }, run: ok }),
      (e: unknown) =>
        isSwitchyardError(e, 'invalid-manifest') && /lane "beta".*version: version must be semver/.test(e.message),
    );
    assert.throws(
      () => registry.register({ manifest: { ...manifest('gamma'), surprise: true } as never, run: ok }),
      /lane "gamma" has an invalid manifest: \(root\): Unrecognized key: "surprise"/,
    );
    assert.throws(
      () => registry.register({ manifest: { ...manifest('Bad Id') }, run: ok }),
      /id: a lane id is lower-case/,
    );
    assert.equal(registry.list().length, 0, 'nothing half-registered');
  });

  it('rejects a duplicate lane id and keeps the first', () => {
    const registry = new LaneRegistry();
    const first = scriptedLane('dup', ok);
    registry.register(first);
    assert.throws(
      () => registry.register(scriptedLane('dup', ok)),
      (e: unknown) => isSwitchyardError(e, 'duplicate-lane') && /"dup" is already registered/.test(e.message),
    );
    assert.equal(registry.get('dup')?.plugin, first);
  });

  it('rejects an unsupported lane API version, listing the supported ones', () => {
    assert.throws(
      () => new LaneRegistry().register(scriptedLane('future', ok, { apiVersion: 9 })),
      /needs lane API version 9; this Switchyard supports 1/,
    );
  });

  it('contains a plugin that throws while its manifest is read', () => {
    const registry = new LaneRegistry();
    const plugin = {
      get manifest(): never {
        throw new Error('boom at registration');
      },
      run: ok,
    };
    assert.throws(() => registry.register(plugin), /threw while its manifest was read: boom at registration/);
    registry.register(scriptedLane('after', ok));
    assert.equal(registry.list().length, 1);
  });

  it('names the registered lanes when an unknown lane is required', () => {
    const registry = new LaneRegistry();
    registry.register(scriptedLane('one', ok));
    registry.register(scriptedLane('two', ok));
    assert.throws(() => registry.require('three'), /unknown lane "three"; registered lanes: one, two/);
  });
});

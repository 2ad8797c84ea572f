import assert from 'node:assert/strict';
import type { LanePlugin, LaneReadinessInput } from '../../../src/api';
import { checkLaneReadiness } from '../../../src/core/lanes/laneReadiness';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { envSecretSource } from '../../../src/core/secrets/secretSource';

/** A lane with two required settings, a required and an optional secret, and the given own check. */
function laneWith(readiness?: LanePlugin['readiness']) {
  const registry = new LaneRegistry();
  registry.register({
    manifest: {
      id: 'picky',
      displayName: 'Picky',
      version: '1.0.0',
      apiVersion: 1,
      kind: 'command',
      defaultRetryCap: 1,
      capabilities: { resume: 'none', streaming: false, tools: false },
      settings: {
        host: { description: 'where', type: 'string', required: true },
        model: { description: 'which', type: 'string', required: true },
        extra: { description: 'optional', type: 'string' },
      },
      requiredSecrets: ['PICKY_KEY'],
      optionalSecrets: ['PICKY_ORG'],
    },
    run: async () => ({ status: 'succeeded' }),
    ...(readiness ? { readiness } : {}),
  });
  return registry.require('picky');
}

const check = (lane: ReturnType<typeof laneWith>, settings: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  checkLaneReadiness(lane, { settings, secrets: envSecretSource(env), parentEnv: env });

describe('checkLaneReadiness lists every problem at once', () => {
  it('each missing required setting and each missing required secret, in order; reason and fix are the first', async () => {
    const r = await check(laneWith(), { extra: 'x', model: '  ' });
    assert.equal(r.ready, false);
    if (r.ready) return;
    assert.deepEqual(
      r.problems?.map((p) => [p.reason.replace(/:.*/, ''), p.fixes]),
      [
        ['lane "picky" needs the "host" setting', [{ kind: 'setting', setting: 'host' }]],
        ['lane "picky" needs the "model" setting', [{ kind: 'setting', setting: 'model' }]],
        ['lane "picky" needs PICKY_KEY, which is not set', [{ kind: 'secret', secret: 'PICKY_KEY' }]],
      ],
    );
    assert.equal(r.reason, r.problems?.[0]?.reason);
    assert.deepEqual(r.fix, { kind: 'setting', setting: 'host' });
    assert.match(r.problems?.[2]?.reason ?? '', /set the PICKY_KEY environment variable$/);
  });

  it("the lane's own problems come after a missing secret; its check sees which secrets are set", async () => {
    const seen: LaneReadinessInput[] = [];
    const lane = laneWith(async (input) => {
      seen.push(input);
      return {
        ready: false,
        reason: 'binary missing',
        problems: [
          { reason: 'binary missing', fixes: [{ kind: 'setting', setting: 'binary' }] },
          {
            reason: 'not signed in',
            fixes: [
              { kind: 'terminal', label: 'Sign In', argv: ['/opt/tool', 'login'] },
              { kind: 'secret', secret: 'PICKY_KEY' },
            ],
          },
        ],
      };
    });
    const r = await check(lane, { host: 'h', model: 'm' }, { PICKY_ORG: 'org' });
    assert.equal(r.ready, false);
    if (r.ready) return;
    assert.deepEqual(
      r.problems?.map((p) => p.reason.replace(/:.*/, '')),
      ['lane "picky" needs PICKY_KEY, which is not set', 'binary missing', 'not signed in'],
    );
    assert.deepEqual(r.problems?.[2]?.fixes?.[0], { kind: 'terminal', label: 'Sign In', argv: ['/opt/tool', 'login'] });
    assert.deepEqual(seen[0]?.secretsSet, ['PICKY_ORG']);
  });

  it("the lane's own check waits for the required settings (it may need them), not for the secrets", async () => {
    let calls = 0;
    const lane = laneWith(async () => {
      calls++;
      return { ready: false, reason: 'server down', fix: { kind: 'setting', setting: 'host' } };
    });
    const missingSetting = await check(lane, { host: 'h' }, { PICKY_KEY: 'k' });
    assert.equal(calls, 0);
    assert.deepEqual(!missingSetting.ready && missingSetting.problems?.length, 1);
    const set = await check(lane, { host: 'h', model: 'm' }, { PICKY_KEY: 'k' });
    assert.equal(calls, 1);
    // An answer with only reason and fix (a lane written before problems existed) is one problem.
    assert.deepEqual(set, {
      ready: false,
      reason: 'server down',
      fix: { kind: 'setting', setting: 'host' },
      problems: [{ reason: 'server down', fixes: [{ kind: 'setting', setting: 'host' }] }],
    });
  });

  it("ready with the check's detail when nothing is missing; a malformed answer is a problem naming it", async () => {
    const ready = laneWith(async () => ({ ready: true, detail: '/usr/bin/tool' }));
    assert.deepEqual(await check(ready, { host: 'h', model: 'm' }, { PICKY_KEY: 'k' }), {
      ready: true,
      detail: '/usr/bin/tool',
    });
    const odd = laneWith(
      async () =>
        ({ ready: false, reason: 'x', problems: [{ reason: 'y', fixes: [{ kind: 'terminal', argv: [] }] }] }) as never,
    );
    const r = await check(odd, { host: 'h', model: 'm' }, { PICKY_KEY: 'k' });
    assert.equal(r.ready, false);
    assert.match(
      !r.ready ? r.reason : '',
      /^lane "picky": its readiness check gave an answer Switchyard cannot read: problems\.0\.fixes\.0\./,
    );
  });
});

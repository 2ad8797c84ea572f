import assert from 'node:assert/strict';
import { failureFix } from '../../../src/core/report/failureFix';
import { registryWithBuiltins } from '../../../src/lanes/builtinLanes';

const lanes = registryWithBuiltins();
const manifest = (id: string) => lanes.require(id).manifest;

describe('failureFix: the action a failure notification leads with', () => {
  it('a missing secret → Set API Key for that secret', () => {
    const reason = 'lane "anthropic" needs ANTHROPIC_API_KEY, which is not set: set it';
    assert.deepEqual(failureFix('secret-missing', reason, manifest('anthropic')), {
      kind: 'secret',
      secret: 'ANTHROPIC_API_KEY',
    });
  });

  it("a lane's stderr saying its key is not set → the lane's key; the command lane has none → its settings", () => {
    const stderr = '`codex exec` failed with exit code 1; stderr: error: OPENAI_API_KEY is not set';
    assert.deepEqual(failureFix('lane-exit', stderr, manifest('codex')), { kind: 'secret', secret: 'OPENAI_API_KEY' });
    assert.deepEqual(failureFix('lane-exit', stderr, manifest('command')), { kind: 'setting' });
  });

  it('a misconfigured lane, an unknown option, a command not found → Open Settings', () => {
    assert.deepEqual(failureFix('lane-misconfigured', 'lane "command" is misconfigured', manifest('command')), {
      kind: 'setting',
    });
    assert.deepEqual(failureFix('lane-exit', "error: unknown option '--yolo'", manifest('codex')), { kind: 'setting' });
    assert.deepEqual(
      failureFix(
        'lane-exit',
        '`agent` failed with exit code 127; stderr: sh: 1: agent: not found',
        manifest('command'),
      ),
      { kind: 'setting' },
    );
  });

  it('no setup fix for a failure of the work or an unknown error', () => {
    assert.equal(
      failureFix('verify-failed', 'acceptance command `npm test` exited with code 1', manifest('command')),
      undefined,
    );
    assert.equal(
      failureFix('lane-exit', '`./agent.sh` failed with exit code 1; stderr: flaky', manifest('command')),
      undefined,
    );
    assert.equal(failureFix('canceled', 'the task was canceled', manifest('command')), undefined);
  });
});

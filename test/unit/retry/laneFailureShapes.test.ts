import assert from 'node:assert/strict';
import { classify } from '../../../src/core/retry/classifyError';
import { retryVerdict } from '../../../src/core/transitions/retryVerdict';

const BACKOFF = { initialMs: 0, coefficient: 2, maxMs: 0 };

describe('classify: the permanent shapes of a lane that cannot work as set up', () => {
  const cases: { text: string; rule: string }[] = [
    {
      text: '`./agent.sh` failed with exit code 1; stderr: error: OPENAI_API_KEY is not set',
      rule: 'key-missing',
    },
    { text: 'Error: ANTHROPIC_API_KEY environment variable is missing', rule: 'key-missing' },
    { text: 'error: missing API key; pass --api-key or set it in the environment', rule: 'key-missing' },
    { text: 'Not logged in · Please run /login', rule: 'not-logged-in' },
    { text: 'You are not logged in. Run `codex login` first.', rule: 'not-logged-in' },
    { text: "error: unknown option '--yolo'", rule: 'unknown-option' },
    { text: "error: unexpected argument '--frobnicate' found", rule: 'unknown-option' },
    { text: 'lane "command" is misconfigured: the command lane needs a "command" setting', rule: 'lane-misconfigured' },
    { text: 'spawn codex ENOENT', rule: 'command-not-found' },
  ];
  for (const { text, rule } of cases) {
    it(`${rule}: ${text}`, () => {
      assert.deepEqual([classify(text).class, classify(text).rule], ['permanent', rule]);
    });
  }

  it('unknown errors stay transient, and a network error is still transient', () => {
    for (const text of ['`./agent.sh` failed with exit code 1; stderr: something odd happened', 'boom']) {
      assert.deepEqual([classify(text).class, classify(text).rule], ['transient', 'unclassified']);
    }
    assert.equal(classify('fetch failed: ECONNREFUSED 127.0.0.1:8000').class, 'transient');
    // "token" in a rate-limit message is no missing key
    assert.equal(classify('rate limit: too many tokens per minute, try again in 2s').class, 'transient');
  });

  it('a lane-exit with a missing key gets no second attempt; an unknown one does', () => {
    const verdict = (reason: string) =>
      retryVerdict({ code: 'lane-exit', reason, attempt: 1, cap: 2, lane: 'command', backoff: BACKOFF });
    const missing = verdict('`./agent.sh` failed with exit code 1; stderr: error: OPENAI_API_KEY is not set');
    assert.equal(missing.retry, false);
    assert.equal(missing.permanent, true);
    assert.match(missing.why, /key-missing/);
    assert.equal(verdict('`./agent.sh` failed with exit code 1; stderr: flaky').retry, true);
  });
});

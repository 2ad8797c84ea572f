import assert from 'node:assert/strict';
import { failureHeadline } from '../../../src/core/text/failureHeadline';

describe('a failure in plain words', () => {
  it("leads with a command lane's stderr, not the command line and exit code", () => {
    assert.deepEqual(
      failureHeadline('`/tmp/ws/agent.sh --fast` failed with exit code 1; stderr: ANTHROPIC_API_KEY is not set'),
      { reason: 'ANTHROPIC_API_KEY is not set', how: 'exit code 1' },
    );
  });

  it('leads with the first error the command lane found in the output, when it names one', () => {
    assert.deepEqual(
      failureHeadline(
        '`sh /tmp/ws/missingKey.sh` failed with exit code 1: error: OPENAI_API_KEY is not set; stderr: error: OPENAI_API_KEY is not set (not retried: permanent (key-missing: an API key or token the agent needs is not set: set it (Set API Key, or the environment)))',
      ),
      { reason: 'error: OPENAI_API_KEY is not set', how: 'exit code 1' },
    );
  });

  it("drops the retry policy's notes and a breaker's news", () => {
    const raw =
      '`node agent.mjs` failed with exit code 2; stderr: error: missing key | see the docs; breaker on lane command closed after 3 successful probe run(s) (not retried: permanent (key-missing: an API key or token the agent needs is not set: set it (Set API Key, or the environment)))';
    const headline = failureHeadline(raw);
    assert.equal(headline.reason, 'error: missing key; see the docs');
    assert.doesNotMatch(JSON.stringify(headline), /not retried|breaker|permanent/);
  });

  it('keeps any other reason as it is', () => {
    assert.deepEqual(failureHeadline('anthropic: 401 invalid x-api-key (attempt 1 failed; retrying)'), {
      reason: 'anthropic: 401 invalid x-api-key',
    });
    assert.deepEqual(failureHeadline('`x` failed with signal SIGKILL (no stderr output)'), {
      reason: 'the agent ended with signal SIGKILL',
      how: 'signal SIGKILL',
    });
  });
});

import assert from 'node:assert/strict';
import { shownRunState } from '../../../src/core/model/runStates';

// A run stays RUNNING while its task is AWAITING_CI (the engine keeps it to resume the wait after a restart); the
// views said RUNNING for a run that only waits for the pull request's required checks.
describe('the state a run is shown in', () => {
  it('a RUNNING run whose pull request is open waits for CI', () => {
    assert.equal(shownRunState({ state: 'RUNNING', pullRequest: { state: 'open' } }), 'AWAITING_CI');
  });

  it('any other run shows its own state', () => {
    assert.equal(shownRunState({ state: 'RUNNING' }), 'RUNNING', 'no pull request yet: the agent or a stage works');
    assert.equal(shownRunState({ state: 'RUNNING', pullRequest: { state: 'merged' } }), 'RUNNING');
    assert.equal(shownRunState({ state: 'SUCCEEDED', pullRequest: { state: 'open' } }), 'SUCCEEDED');
    assert.equal(shownRunState({ state: 'FAILED', pullRequest: { state: 'open' } }), 'FAILED');
  });
});

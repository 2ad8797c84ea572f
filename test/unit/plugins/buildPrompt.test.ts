import * as assert from 'node:assert/strict';
import { buildPrompt } from '../../../plugins/shared/buildPrompt';

const task = { id: 't1', title: 'Fix the parser', spec: 'Fix the parser', files: [], acceptance: 'npm test' };
const failed =
  'acceptance command `npm test` exited with code 1: ✖ parses dates (2ms) | AssertionError: expected 2024 … fail 1';

describe('the prompt of a later attempt', () => {
  it('a fix attempt after a failed test run is told it finished and was not accepted, not interrupted', () => {
    const prompt = buildPrompt(
      {
        task,
        attempt: { runId: 't1.2', attempt: 2, parentRunId: 't1.1', retryReason: failed },
        resume: { runId: 't1.1', sessionId: 's-1' },
        feedback: `Attempt 1 failed verification: ${failed}`,
      },
      { resumingSession: 's-1' },
    );
    assert.doesNotMatch(prompt, /interrupted/);
    assert.match(prompt, /Your last attempt finished, but its result was not accepted: the feedback below says why\./);
    assert.match(
      prompt,
      /Feedback on the previous attempt, to address now:\n\nAttempt 1 failed verification: .*✖ parses/,
    );
  });

  it('the same from salvaged work', () => {
    const prompt = buildPrompt(
      {
        task,
        attempt: { runId: 't1.2', attempt: 2, retryReason: failed },
        resume: { runId: 't1.1', salvageBranch: 'switchyard/salvage/t1.1' },
        feedback: `Attempt 1 failed verification: ${failed}`,
      },
      { salvage: { branch: 'switchyard/salvage/t1.1', diff: '+x\n', truncated: false } },
    );
    assert.doesNotMatch(prompt, /stopped before it finished|interrupted/);
    assert.match(prompt, /An earlier attempt \(run t1\.1\) finished, but its result was not accepted/);
  });

  it('an interrupted attempt (no verdict, no feedback) is still called interrupted', () => {
    const prompt = buildPrompt(
      { task, attempt: { runId: 't1.2', attempt: 2, retryReason: 'follows an interruption of t1.1' } },
      { resumingSession: 's-1' },
    );
    assert.match(prompt, /which was interrupted before it finished \(attempt 2\)\. It stopped with: follows an/);
  });
});

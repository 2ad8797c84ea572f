import assert from 'node:assert/strict';
import { buildPrompt } from '../../../plugins/shared/buildPrompt';
import { finishRun } from '../../../src/core/transitions/finishRun';
import { newRun } from '../../../src/core/transitions/newRun';
import { setTaskState } from '../../../src/core/engine/commands/taskCommands';
import type { LaneRunInput } from '../../../src/api';
import type { Run } from '../../../src/core/model/run';
import { registry, runOf, stateWith } from './engineState';

/** A CLI lane's options: it resumes its sessions at run level; the target branch's head is `target1`. */
const opts = { root: '/repo', owner: 'me', lane: 'a', resume: 'run' as const, targetHead: 'target1', now: 1_000 };
const noJitter = { random: () => 0.5, now: 2_000 };

/** The lane's resume handle for `run`, as runAttempt passes it. */
function handle(run: Run): LaneRunInput['resume'] {
  const from = run.resumeFrom!;
  return {
    runId: from.runId,
    sessionId: from.sessionId,
    sessionCwd: from.sessionCwd,
    salvageBranch: from.salvageBranch,
    start: from.start,
    workBranch: from.workBranch,
  };
}

describe('where an attempt starts (one rule), and what its prompt says', () => {
  it("after a merge conflict of a run with a CLI session: the target's current head, the earlier change as context only, and a prompt that never says the worktree holds it", () => {
    const state = stateWith([{ title: 'Change parse()', lane: 'a' }]);
    const task = state.tasks[0]!;
    const r1 = newRun(state, task, opts);
    runOf(state, r1.id).sessionId = 'session-1';
    setTaskState(task, 'VERIFYING');
    setTaskState(task, 'INTEGRATING');
    finishRun(
      state,
      registry({ id: 'a', cap: 3 }),
      r1.id,
      {
        ok: false,
        code: 'merge-conflict',
        reason: 'merging switchyard/t1/1 into switchyard/integration conflicts in src/parse.ts',
        feedback: 'Merging the previous attempt (t1.1) into switchyard/integration conflicted in: src/parse.ts.',
        headCommit: 'c1',
        sessionId: 'session-1',
        laneOk: true,
      },
      noJitter,
    );
    assert.equal(task.state, 'READY');
    const r2 = newRun(state, task, opts);
    assert.equal(r2.baseCommit, 'target1', "the retry starts on the target's current head");
    assert.deepEqual(r2.resumeFrom, {
      runId: 't1.1',
      sessionId: 'session-1',
      sessionCwd: r1.worktree,
      start: 'target-head',
      workBranch: r1.branch,
    });
    assert.equal(r2.resumeFrom?.commit, undefined, 'the worktree does not start at the conflicting commit');

    // The lane does not resume a session of another worktree, so the prompt describes a fresh start on the target.
    const prompt = buildPrompt(
      {
        task: { id: 't1', title: 'Change parse()', spec: '', files: [] },
        attempt: { runId: r2.id, attempt: r2.attempt, retryReason: r2.retryReason },
        resume: handle(r2),
        feedback: r2.feedback,
        mode: 'work',
      },
      { salvage: { branch: r1.branch, diff: 'diff --git a/src/parse.ts b/src/parse.ts\n+x\n', truncated: false } },
    );
    assert.match(prompt, /This attempt starts from the target branch's current head/);
    assert.match(prompt, /The working tree does NOT hold that change \(it is on branch switchyard\/t1\/1\)/);
    assert.match(prompt, /```diff\ndiff --git a\/src\/parse\.ts b\/src\/parse\.ts\n\+x\n```/);
    assert.doesNotMatch(prompt, /holds the work you had done/);
    assert.doesNotMatch(prompt, /already starts from it/);
  });

  it('after an interruption with salvaged work: on the salvage, whose prompt says the worktree starts from it', () => {
    const state = stateWith([{ title: 'x', lane: 'a' }]);
    const task = state.tasks[0]!;
    const r1 = newRun(state, task, opts);
    Object.assign(runOf(state, r1.id), {
      sessionId: 'session-1',
      salvage: { branch: 'switchyard/salvage/t1.1', commit: 's1', files: 1 },
    });
    finishRun(
      state,
      registry({ id: 'a', cap: 3 }),
      r1.id,
      { ok: false, code: 'interrupted', reason: 'gone' },
      noJitter,
    );
    const r2 = newRun(state, task, opts);
    assert.equal(r2.baseCommit, 'base0');
    assert.deepEqual(r2.resumeFrom, {
      runId: 't1.1',
      sessionId: 'session-1',
      sessionCwd: r1.worktree,
      start: 'earlier-work',
      salvageBranch: 'switchyard/salvage/t1.1',
      workBranch: 'switchyard/salvage/t1.1',
      commit: 's1',
    });
    const prompt = buildPrompt(
      {
        task: { id: 't1', title: 'x', spec: '', files: [] },
        attempt: { runId: r2.id, attempt: r2.attempt, retryReason: r2.retryReason },
        resume: handle(r2),
        mode: 'work',
      },
      { salvage: { branch: 'switchyard/salvage/t1.1', diff: '+half\n', truncated: false } },
    );
    assert.match(prompt, /Its partial work was kept on branch switchyard\/salvage\/t1\.1, and this working tree/);
  });
});

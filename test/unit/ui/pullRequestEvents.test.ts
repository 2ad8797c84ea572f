import * as assert from 'node:assert/strict';
import type { PullRequestRecord } from '../../../src/core/model/pullRequestRecord';
import type { ProjectState } from '../../../src/core/store/projectState';
import { PullRequestEvents, pullRequestEventText } from '../../../src/ui/progress/pullRequestEvents';
import { pullRequest } from '../../helpers/pullRequestFixture';
import { iso, run, state, task } from '../../helpers/panelFixture';

/** The project as the window reads it at each refresh: t1's run t1.<attempt> carries `pr`. */
function withPr(pr: PullRequestRecord, attempt = 1, taskState: 'AWAITING_CI' | 'READY' | 'DONE' = 'AWAITING_CI') {
  const runs = Array.from({ length: attempt }, (_, i) =>
    run({
      id: `t1.${i + 1}`,
      taskId: 't1',
      state: 'SUCCEEDED',
      startedAt: iso(i * 1000),
      ...(i + 1 === attempt ? { pullRequest: pr } : {}),
    }),
  );
  return state({
    tasks: [task({ id: 't1', state: taskState, lastRunId: `t1.${attempt}`, spec: { title: 'Add the export button' } })],
    runs,
  });
}

const failing = (sha: string, conclusion = 'failure') =>
  pullRequest(7, {
    headSha: sha.repeat(40),
    checks: [
      { name: 'build', state: 'success' },
      { name: 'unit tests', state: 'failure', conclusion },
    ],
  });

describe('pull-request notifications (what changed between the states the window saw)', () => {
  it('the first state is only the baseline: a PR merged or failing before the window opened is not news', () => {
    const events = new PullRequestEvents();
    assert.deepEqual(events.observe(withPr(failing('a'))), []);
    assert.deepEqual(events.observe(withPr(failing('a'))), [], 'a refresh of the same state says nothing');
  });

  it('a failing required check is announced once, with its name and conclusion; again only on a new head', () => {
    const events = new PullRequestEvents();
    events.observe(withPr(pullRequest(7)));
    const seen = events.observe(withPr(failing('a', 'timed_out')));
    assert.deepEqual(seen, [
      {
        kind: 'check-failed',
        taskId: 't1',
        title: 'Add the export button',
        number: 7,
        url: 'https://github.example/acme/widgets/pull/7',
        check: { name: 'unit tests', conclusion: 'timed_out' },
      },
    ]);
    assert.equal(
      pullRequestEventText(seen[0]!),
      'Switchyard: t1 · Add the export button: required check "unit tests" failed (timed_out) on pull request #7.',
    );
    for (let i = 0; i < 3; i++) assert.deepEqual(events.observe(withPr(failing('a'), 1, 'READY')), []);
    // The fix attempt pushed a new head, and the check failed there too: that is a new event.
    assert.equal(events.observe(withPr(failing('b'), 2)).length, 1);
    assert.deepEqual(events.observe(withPr(failing('b'), 2)), []);
  });

  it('a merge is announced once, from the run record or from the task (integration.pullRequest)', () => {
    const events = new PullRequestEvents();
    events.observe(withPr(pullRequest(7)));
    const merged = withPr(pullRequest(7, { state: 'merged', mergeCommit: 'f'.repeat(40) }), 1, 'DONE');
    const seen = events.observe(merged);
    assert.deepEqual(
      seen.map((e) => [e.kind, e.number, e.kind === 'merged' ? e.base : '']),
      [['merged', 7, 'main']],
    );
    assert.equal(
      pullRequestEventText(seen[0]!),
      'Switchyard: t1 · Add the export button is DONE: pull request #7 was merged into main (merge commit ffffffffffff).',
    );
    const recorded: ProjectState = structuredClone(merged);
    recorded.tasks[0]!.integration = {
      branch: 'main',
      commit: 'f'.repeat(40),
      runId: 't1.1',
      at: iso(5000),
      pullRequest: { number: 7, url: 'https://github.example/acme/widgets/pull/7' },
    };
    assert.deepEqual(events.observe(recorded), [], 'the same merge seen on the task is not announced again');

    const other = new PullRequestEvents();
    other.observe(state({ tasks: [task({ id: 't1', state: 'AWAITING_CI' })] }));
    assert.deepEqual(
      other.observe(recorded).map((e) => [e.kind, e.taskId, e.url, e.kind === 'merged' ? e.base : '']),
      [['merged', 't1', 'https://github.example/acme/widgets/pull/7', 'main']],
    );
  });

  it('a new task whose PR already fails (another window ran it) is news once it appears', () => {
    const events = new PullRequestEvents();
    events.observe(state({}));
    assert.equal(events.observe(withPr(failing('a'))).length, 1);
  });
});

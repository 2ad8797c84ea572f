import * as assert from 'node:assert/strict';
import { PullRequestRecord } from '../../../src/core/model/pullRequestRecord';
import { checksSummary, isWebUrl, taskPullRequest } from '../../../src/core/model/taskPullRequest';
import { checkRow, pullRequestRow, taskContextValue } from '../../../src/ui/views/pullRequestRows';
import { pullRequest } from '../../helpers/pullRequestFixture';
import { iso, run, state, task } from '../../helpers/panelFixture';

describe("Tasks tree rows of a task's pull request", () => {
  it("takes the task's last run's record, else the latest run's, else the merged PR recorded on the task", () => {
    const s = state({
      tasks: [
        task({ id: 't1', state: 'AWAITING_CI', lastRunId: 't1.2' }),
        task({ id: 't2', state: 'READY' }),
        task({
          id: 't3',
          state: 'DONE',
          integration: {
            branch: 'main',
            commit: 'd'.repeat(40),
            runId: 't3.1',
            at: iso(0),
            pullRequest: { number: 9, url: 'https://github.example/acme/widgets/pull/9' },
          },
        }),
        task({ id: 't4', state: 'READY' }),
      ],
      runs: [
        run({ id: 't1.1', taskId: 't1', state: 'FAILED', pullRequest: pullRequest(4, { headSha: 'a'.repeat(40) }) }),
        run({ id: 't1.2', taskId: 't1', state: 'SUCCEEDED', pullRequest: pullRequest(4) }),
        run({ id: 't2.1', taskId: 't2', state: 'FAILED', startedAt: iso(1), pullRequest: pullRequest(5) }),
        run({ id: 't2.2', taskId: 't2', state: 'FAILED', startedAt: iso(2), pullRequest: pullRequest(6) }),
        run({ id: 't3.1', taskId: 't3', state: 'SUCCEEDED' }),
        run({ id: 't4.1', taskId: 't4', state: 'FAILED' }),
      ],
    });
    const of = (id: string) => taskPullRequest(s.tasks.find((t) => t.id === id)!, s.runs);
    assert.equal(of('t1')?.runId, 't1.2');
    assert.equal(of('t1')?.headSha, 'c'.repeat(40));
    assert.equal(of('t2')?.number, 6, 'the latest run that has one');
    assert.deepEqual(of('t3'), {
      number: 9,
      url: 'https://github.example/acme/widgets/pull/9',
      state: 'merged',
      checks: [],
      warnings: [],
    });
    assert.equal(of('t4'), undefined);
  });

  it('the PR row: number, state and checks summary; contextValue pullRequest.<state>; a tooltip per check', () => {
    const pr = taskPullRequest(task({ id: 't1', state: 'AWAITING_CI', lastRunId: 't1.1' }), [
      run({ id: 't1.1', taskId: 't1', state: 'SUCCEEDED', pullRequest: PullRequestRecord.parse(pullRequest(12)) }),
    ])!;
    const row = pullRequestRow(pr);
    assert.equal(row.label, 'PR #12');
    assert.equal(row.description, 'open · 1/3 checks passed, 1 pending, 1 not registered yet');
    assert.equal(row.contextValue, 'pullRequest.open');
    assert.deepEqual(row.icon, { id: 'git-pull-request', color: 'charts.blue' });
    assert.deepEqual(row.tooltip.split('\n'), [
      'PR #12 open · 1/3 checks passed, 1 pending, 1 not registered yet',
      'https://github.example/acme/widgets/pull/12',
      'acme/widgets: switchyard/t12.1 → main',
      'head cccccccccccc',
      'required checks:',
      '  ✓ build: success',
      '  … unit tests: pending',
      '  ? lint: missing (not registered yet)',
    ]);
    assert.deepEqual(
      pr.checks.map((c) => {
        const r = checkRow(pr, c);
        return [r.label, r.description, r.contextValue, r.icon.id];
      }),
      [
        ['build', 'success', 'check.success', 'pass'],
        ['unit tests', 'pending', 'check.pending', 'clock'],
        ['lint', 'missing (not registered yet)', 'check.missing', 'circle-large-outline'],
      ],
    );
  });

  it("a failed check shows GitHub's conclusion; a merged PR its merge commit and warnings", () => {
    const pr = taskPullRequest(task({ id: 't2', state: 'DONE', lastRunId: 't2.1' }), [
      run({
        id: 't2.1',
        taskId: 't2',
        state: 'SUCCEEDED',
        pullRequest: pullRequest(13, {
          state: 'merged',
          mergeCommit: 'e'.repeat(40),
          checks: [{ name: 'e2e', state: 'failure', conclusion: 'timed_out', url: 'https://ci.example/1' }],
          warnings: ['branch protection of main is not readable (403): the checks seen on the head were used'],
        }),
      }),
    ])!;
    const row = pullRequestRow(pr);
    assert.equal(row.description, 'merged · 0/1 checks passed, 1 failed');
    assert.equal(row.contextValue, 'pullRequest.merged');
    assert.match(row.tooltip, /merge commit eeeeeeeeeeee/);
    assert.match(row.tooltip, /✗ e2e: failure \(timed_out\)/);
    assert.match(row.tooltip, /warning: branch protection of main is not readable \(403\)/);
    const check = checkRow(pr, pr.checks[0]!);
    assert.equal(check.description, 'failure (timed_out)');
    assert.deepEqual(check.icon, { id: 'error', color: 'testing.iconFailed' });
    assert.match(check.tooltip, /https:\/\/ci\.example\/1/);
  });

  it('untrusted names stay one plain line (no control or bidi characters)', () => {
    const pr = taskPullRequest(task({ id: 't1', state: 'AWAITING_CI', lastRunId: 't1.1' }), [
      run({
        id: 't1.1',
        taskId: 't1',
        state: 'SUCCEEDED',
        pullRequest: pullRequest(3, { checks: [{ name: 'ci\u001b[31m\u202Ered\nnext', state: 'failure' }] }),
      }),
    ])!;
    const row = checkRow(pr, pr.checks[0]!);
    for (const bad of ['\u001b', '\u202E', '\n']) assert.ok(!row.label.includes(bad), JSON.stringify(row.label));
    assert.match(row.label, /ci.*red.*next/);
  });

  it('task contextValue: .pr only where no exact-match menu clause names the state', () => {
    assert.equal(taskContextValue('AWAITING_CI', true), 'task.AWAITING_CI.pr');
    assert.equal(taskContextValue('DONE', true), 'task.DONE.pr');
    assert.equal(taskContextValue('DONE', false), 'task.DONE');
    assert.equal(taskContextValue('READY', true), 'task.READY', 'Run Task matches task.READY exactly');
    assert.equal(taskContextValue('FAILED', true), 'task.FAILED');
  });

  it('opens only http(s) URLs; summarizes an empty check list', () => {
    assert.equal(isWebUrl('https://github.com/acme/widgets/pull/1'), true);
    assert.equal(isWebUrl('http://127.0.0.1:9/acme/widgets/pull/1'), true);
    for (const url of ['command:workbench.action.terminal.new', 'file:///etc/passwd', 'javascript:alert(1)', 'nope'])
      assert.equal(isWebUrl(url), false, url);
    assert.equal(checksSummary([]), 'no required checks recorded');
  });
});

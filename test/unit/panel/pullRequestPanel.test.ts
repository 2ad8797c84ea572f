import * as assert from 'node:assert/strict';
import { buildPanelView } from '../../../src/core/panel/buildPanelView';
import { PanelView, TaskDetail } from '../../../src/core/panel/panelProtocol';
import { buildTaskDetail } from '../../../src/core/panel/taskDetail';
import { pullRequest } from '../../helpers/pullRequestFixture';
import { iso, run, state, task } from '../../helpers/panelFixture';

function project() {
  return state({
    tasks: [
      task({ id: 't1', state: 'AWAITING_CI', lastRunId: 't1.1', spec: { title: 'Add the export button' } }),
      task({ id: 't2', state: 'AWAITING_CI', lastRunId: 't2.1' }),
      task({ id: 't3', state: 'RUNNING', lastRunId: 't3.1' }),
      task({ id: 't4', state: 'DONE', lastRunId: 't4.1' }),
    ],
    runs: [
      // The engine keeps an AWAITING_CI task's run RUNNING (to resume the wait after a restart).
      run({ id: 't1.1', taskId: 't1', state: 'RUNNING', pullRequest: pullRequest(21) }),
      run({
        id: 't2.1',
        taskId: 't2',
        state: 'SUCCEEDED',
        pullRequest: pullRequest(22, {
          checks: [{ name: 'build', state: 'failure', conclusion: 'cancelled' }],
          warnings: ['rulesets of main are not readable (404): the checks seen on the head were used'],
        }),
      }),
      run({ id: 't3.1', taskId: 't3', state: 'RUNNING' }),
      run({
        id: 't4.1',
        taskId: 't4',
        state: 'SUCCEEDED',
        pullRequest: pullRequest(20, { state: 'merged', mergeCommit: '9'.repeat(40) }),
      }),
    ],
  });
}

describe('queue panel: pull requests and the AWAITING_CI stage', () => {
  it('an AWAITING_CI column after the WIP stages, counting its tasks, with its limit (wip.AWAITING_CI)', () => {
    const s = project();
    const view = buildPanelView(s, '/repo', { guards: [] }, Date.parse(iso(60_000)));
    assert.equal(PanelView.safeParse(view).success, true);
    assert.deepEqual(
      view.pipeline.stages.map((x) => [x.stage, x.count, x.limit]),
      [
        ['RUNNING', 1, 4],
        ['VERIFYING', 0, 2],
        ['REVIEWING', 0, 3],
        ['INTEGRATING', 0, 1],
        ['AWAITING_CI', 2, 4],
      ],
    );
    assert.deepEqual(view.pipeline.stages.at(-1)!.tasks, ['t1', 't2']);
    assert.equal(view.header.counts.AWAITING_CI, 2);
    // A project whose settings carry the stage's WIP limit shows it.
    (s.settings.wip as Record<string, number>).AWAITING_CI = 3;
    assert.equal(buildPanelView(s, '/repo', { guards: [] }).pipeline.stages.at(-1)!.limit, 3);
  });

  it("a task's row carries its PR and each required check's state; a task without one has none", () => {
    const view = buildPanelView(project(), '/repo', { guards: [] });
    const row = (id: string) => view.tasks.find((t) => t.id === id)!;
    assert.deepEqual(row('t1').pr, {
      number: 21,
      url: 'https://github.example/acme/widgets/pull/21',
      state: 'open',
      checks: [
        { name: 'build', state: 'success', conclusion: 'success' },
        { name: 'unit tests', state: 'pending' },
        { name: 'lint', state: 'missing' },
      ],
    });
    assert.deepEqual(row('t2').pr?.checks, [{ name: 'build', state: 'failure', conclusion: 'cancelled' }]);
    assert.equal(row('t4').pr?.state, 'merged');
    assert.equal(row('t3').pr, undefined);
  });

  it("the task's detail has the PR with where it goes, its head, merge commit and warnings", () => {
    const inputs = { runLogs: new Map(), diffs: new Set<string>(), worktrees: new Set<string>(), guards: [] };
    const detail = buildTaskDetail(project(), 't2', inputs)!;
    assert.equal(TaskDetail.safeParse(detail).success, true);
    assert.deepEqual(detail.pullRequest, {
      number: 22,
      url: 'https://github.example/acme/widgets/pull/22',
      state: 'open',
      checks: [{ name: 'build', state: 'failure', conclusion: 'cancelled' }],
      repository: 'acme/widgets',
      head: 'switchyard/t22.1',
      base: 'main',
      headSha: 'c'.repeat(40),
      warnings: ['rulesets of main are not readable (404): the checks seen on the head were used'],
    });
    assert.equal(buildTaskDetail(project(), 't4', inputs)!.pullRequest?.mergeCommit, '9'.repeat(40));
    assert.equal(buildTaskDetail(project(), 't3', inputs)!.pullRequest, undefined);
  });

  it('a run that only waits for its pull request is AWAITING_CI in the detail; a working run RUNNING', () => {
    const inputs = { runLogs: new Map(), diffs: new Set<string>(), worktrees: new Set<string>(), guards: [] };
    const waiting = buildTaskDetail(project(), 't1', inputs)!;
    assert.equal(TaskDetail.safeParse(waiting).success, true);
    assert.deepEqual(
      waiting.runs.map((r) => [r.id, r.state, r.awaitingCi]),
      [['t1.1', 'RUNNING', true]],
    );
    const working = buildTaskDetail(project(), 't3', inputs)!;
    assert.deepEqual(
      working.runs.map((r) => [r.id, r.state, r.awaitingCi]),
      [['t3.1', 'RUNNING', undefined]],
    );
  });
});

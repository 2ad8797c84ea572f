import * as assert from 'node:assert/strict';
import { buildTaskDetail } from '../../../src/core/panel/taskDetail';
import { TaskDetail } from '../../../src/core/panel/panelProtocol';
import { iso, richProject } from '../../helpers/panelFixture';

describe("panel task detail (a task's run history)", () => {
  it('lists its runs with attempt, lane, duration, cost, status, the real failure reason, resumed calls and what can be opened', () => {
    const { state, guards, trace } = richProject();
    const detail = buildTaskDetail(state, 't8', {
      runLogs: new Map(),
      diffs: new Set(['t8.1', 't8.2']),
      worktrees: new Set(['t8.2']),
      guards,
      trace,
    })!;
    assert.equal(TaskDetail.safeParse(detail).success, true);
    assert.deepEqual(
      detail.runs.map((r) => [
        r.id,
        r.attempt,
        r.lane,
        r.state,
        r.durationMs,
        r.costUsd,
        r.failureCode,
        r.hasDiff,
        r.hasWorktree,
      ]),
      [
        ['t8.1', 1, 'anthropic', 'FAILED', 48_000, 0.0425, 'verify-failed', true, false],
        ['t8.2', 2, 'anthropic', 'FAILED', 52_000, 0.0391, 'verify-failed', true, true],
      ],
    );
    assert.equal(detail.runs[1]!.failureReason, 'pytest exit 1 in tests/test_user.py::test_create');
    assert.deepEqual(detail.runs[1]!.salvage, { branch: 'switchyard/salvage/t8.2', files: 2 });
    assert.equal(
      detail.failureReason,
      'exceeded max attempts (2): last attempt failed with: pytest exit 1 in tests/test_user.py::test_create',
    );
    assert.deepEqual(
      detail.guards.map((g) => `${g.guard} ${g.verdict} ${g.evidence.map((e) => e.where).join(',')}`),
      ['conflict-markers block src/users.py:41,src/users.py:47'],
    );

    const t3 = buildTaskDetail(state, 't3', { runLogs: new Map(), diffs: new Set(), worktrees: new Set(), guards })!;
    assert.deepEqual(t3.runs[1]!.resumeCounts, { replayed: 4, resent: 1, rerun: 0, uncertain: 1 });
    assert.equal(t3.runs[1]!.resumes, 1);
    assert.equal(t3.runs[1]!.retryReason, 'verify-failed: the acceptance command failed');
  });

  it("carries a run's cache split and its text, as the CLI writes it", () => {
    const { state } = richProject();
    const run = state.runs.find((r) => r.id === 't8.2')!;
    run.usage = {
      inputTokens: 5_210,
      outputTokens: 120,
      costUsd: 0.0391,
      cacheReadTokens: 4_300,
      cacheWriteTokens: 600,
    };
    const detail = buildTaskDetail(state, 't8', {
      runLogs: new Map(),
      diffs: new Set(),
      worktrees: new Set(),
      guards: [],
    })!;
    assert.equal(TaskDetail.safeParse(detail).success, true);
    const row = detail.runs.find((r) => r.id === 't8.2')!;
    assert.deepEqual(row.tokens, { input: 5_210, output: 120, cacheRead: 4_300, cacheWrite: 600 });
    assert.equal(row.tokensText, '5210+120 tokens (4300 cache read (83%), 600 cache write, 310 uncached)');
  });

  it("merges the decisions of its runs' logs and the scheduler's trace about it, oldest first, without duplicate finish lines", () => {
    const { state } = richProject();
    const runLogs = new Map([
      [
        't8.1',
        [
          { ts: iso(130_100), type: 'decision', message: 'worktree … on branch switchyard/t8.1' },
          { ts: iso(130_200), type: 'log', stream: 'stdout', line: 'noise' },
        ],
      ],
      ['t8.2', [{ ts: iso(241_000), type: 'decision', message: 'task t8 FAILED: exceeded max attempts' }]],
    ]);
    const trace = [
      {
        ts: iso(129_000),
        type: 'decision' as const,
        kind: 'start',
        task: 't8',
        run: 't8.1',
        message: 'start t8 as t8.1 (attempt 1): score 60',
      },
      {
        ts: iso(241_000),
        type: 'decision' as const,
        kind: 'finish',
        task: 't8',
        run: 't8.2',
        message: 'task t8 FAILED: exceeded max attempts',
      },
      { ts: iso(150_000), type: 'decision' as const, kind: 'start', task: 't5', message: 'not about t8' },
    ];
    const detail = buildTaskDetail(state, 't8', {
      runLogs,
      diffs: new Set(),
      worktrees: new Set(),
      guards: [],
      trace,
    })!;
    assert.deepEqual(
      detail.decisions.map((d) => d.message),
      [
        'start t8 as t8.1 (attempt 1): score 60',
        'worktree … on branch switchyard/t8.1',
        'task t8 FAILED: exceeded max attempts',
      ],
    );
  });

  it('orders runs by when they started: a retry restarts the attempt count', () => {
    const { state } = richProject();
    state.runs.push({
      ...state.runs.find((r) => r.id === 't8.1')!,
      id: 't8.3',
      attempt: 1,
      startedAt: iso(400_000),
      state: 'SUCCEEDED',
      failureCode: undefined,
      failureReason: undefined,
    });
    const detail = buildTaskDetail(state, 't8', {
      runLogs: new Map(),
      diffs: new Set(),
      worktrees: new Set(),
      guards: [],
    })!;
    assert.deepEqual(
      detail.runs.map((r) => `${r.id}#${r.attempt}`),
      ['t8.1#1', 't8.2#2', 't8.3#1'],
    );
  });

  it('an unknown task has no detail', () => {
    assert.equal(
      buildTaskDetail(richProject().state, 't99', {
        runLogs: new Map(),
        diffs: new Set(),
        worktrees: new Set(),
        guards: [],
      }),
      undefined,
    );
  });
});

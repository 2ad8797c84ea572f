import * as assert from 'node:assert/strict';
import { buildPanelView } from '../../../src/core/panel/buildPanelView';
import { PanelView } from '../../../src/core/panel/panelProtocol';
import { PanelStore } from '../../../webview/panelStore';
import { T0, iso, richProject, state, task } from '../../helpers/panelFixture';

const NOW = T0 + 300_000;

describe('panel view model (buildPanelView)', () => {
  it('passes the shared protocol schema', () => {
    const { state: s, guards, trace } = richProject();
    const view = buildPanelView(s, '/work/repo', { guards, trace }, NOW);
    assert.equal(PanelView.safeParse(view).success, true);
    assert.equal(view.header.repo, 'repo');
    assert.equal(view.header.total, 10);
    assert.deepEqual(view.header.counts, {
      DONE: 1,
      RUNNING: 1,
      VERIFYING: 2,
      READY: 3,
      FAILED: 1,
      BLOCKED: 1,
      CANCELED: 1,
    });
  });

  it('shows the worktree count and size when known, the count alone when the size is not, else nothing', () => {
    const { state: s } = richProject();
    const known = buildPanelView(s, '/r', { guards: [], worktreeUsage: { count: 3, bytes: 41_200 } }, NOW);
    assert.deepEqual(known.header.worktrees, { count: 3, bytes: 41_200 });
    assert.equal(PanelView.safeParse(known).success, true);
    const unknown = buildPanelView(s, '/r', { guards: [], worktreeUsage: { count: 2 } }, NOW);
    assert.deepEqual(unknown.header.worktrees, { count: 2 }, 'an unknown size is absent, not 0');
    assert.equal(buildPanelView(s, '/r', { guards: [] }, NOW).header.worktrees, undefined);
  });

  it('shows stage WIP usage with the tasks in each stage, and backpressure with its reason', () => {
    const { state: s } = richProject();
    const view = buildPanelView(s, '/r', { guards: [] }, NOW);
    assert.deepEqual(
      view.pipeline.stages.map((st) => [st.stage, st.count, st.limit, st.tasks]),
      [
        ['RUNNING', 1, 4, ['t2']],
        ['VERIFYING', 2, 2, ['t3', 't4']],
        ['REVIEWING', 0, 3, []],
        ['INTEGRATING', 0, 1, []],
        ['AWAITING_CI', 0, 4, []],
      ],
    );
    assert.deepEqual(view.pipeline.blocked, {
      backpressure: true,
      reason: 'backpressure: VERIFYING is full (2/2), so no new run starts',
    });
  });

  it('says new runs may start when no stage is full', () => {
    const view = buildPanelView(state({ tasks: [task({ id: 't1', state: 'RUNNING' })] }), '/r', { guards: [] }, NOW);
    assert.equal(view.pipeline.blocked, null);
  });

  it("keeps a task's real failure reason, its latest run (attempt, cost) and its blockers", () => {
    const { state: s } = richProject();
    const tasks = new Map(buildPanelView(s, '/r', { guards: [] }, NOW).tasks.map((t) => [t.id, t]));
    const failed = tasks.get('t8')!;
    assert.equal(
      failed.failureReason,
      'exceeded max attempts (2): last attempt failed with: pytest exit 1 in tests/test_user.py::test_create',
    );
    assert.deepEqual(failed.run, {
      id: 't8.2',
      state: 'FAILED',
      attempt: 2,
      startedAt: iso(190_000),
      durationMs: 52_000,
      costUsd: 0.0391,
      failureCode: 'verify-failed',
    });
    assert.equal(failed.runs, 2);
    assert.deepEqual(tasks.get('t9')!.blockedBy, ['t8']);
    assert.equal(tasks.get('t2')!.lane, 'anthropic');
    assert.equal(tasks.get('t2')!.laneOverride, true);
    assert.equal(tasks.get('t1')!.run?.costUsd, undefined, 'a run without usage has no cost (not $0)');
  });

  it('orders READY tasks as the scheduler does and says why the others wait', () => {
    const { state: s } = richProject();
    s.tasks.push(
      task({
        id: 't11',
        state: 'READY',
        updatedAt: iso(10_000),
        spec: { title: 'touches the held file', files: ['src/config.ts'], priority: 99 },
      }),
      task({
        id: 't12',
        state: 'READY',
        updatedAt: iso(10_000),
        retryAt: iso(400_000),
        spec: { title: 'in backoff', priority: 99 },
      }),
    );
    const view = buildPanelView(s, '/r', { guards: [] }, NOW);
    const byId = new Map(view.tasks.map((t) => [t.id, t]));
    assert.deepEqual(byId.get('t7')!.wait, { kind: 'deps', on: ['t2'] });
    assert.deepEqual(byId.get('t11')!.wait, { kind: 'file', file: 'src/config.ts', heldBy: 't2' });
    assert.deepEqual(byId.get('t12')!.wait, { kind: 'backoff', until: iso(400_000) });
    assert.equal(byId.get('t5')!.wait, undefined);
    assert.equal(byId.get('t8')!.key, undefined, 'only READY tasks have an order key');
    const store = new PanelStore();
    store.snapshot(1, view);
    // In the ready set by score (priority 70 before 40), then the waiting ones by score (ties by task number).
    assert.deepEqual(store.list('ready'), ['t6', 't5', 't11', 't12', 't7']);
    assert.deepEqual(store.list('blocked'), ['t9']);
    assert.deepEqual(store.list('active'), ['t2', 't3', 't4']);
  });

  it('shows circuit breakers per lane: open with its code and probe time, probing with its allowance, closed with recent failures', () => {
    const { state: s } = richProject();
    s.breakers.codex = { state: 'half-open', since: iso(100_000), recent: [], successes: 2, opened: 3 };
    const view = buildPanelView(s, '/r', { guards: [] }, NOW);
    const b = new Map(view.breakers.lanes.map((x) => [x.key, x]));
    assert.deepEqual(b.get('anthropic'), {
      key: 'anthropic',
      state: 'open',
      since: iso(280_000),
      code: 'provider-rejected',
      opened: 1,
      successes: 0,
      probeAfter: iso(280_000 + 120_000),
      recent: [],
    });
    assert.equal(b.get('codex')!.state, 'probing');
    assert.equal(b.get('codex')!.allowance, 4);
    assert.deepEqual(b.get('command')!.recent, [{ code: 'verify-failed', at: iso(161_000) }]);
    assert.deepEqual(view.breakers.settings, { failures: 3, windowMs: 600_000, cooldownMs: 120_000, closeAfter: 3 });
  });

  it('computes lane metrics from the recorded runs, with no cost for a lane that reports none, and the canary verdict', () => {
    const { state: s } = richProject();
    const { lanes } = buildPanelView(s, '/r', { guards: [] }, NOW);
    const command = lanes.rows.find((r) => r.lane === 'command')!;
    assert.equal(command.isDefault, true);
    assert.equal(command.tasks, 3);
    assert.equal(command.completed, 1);
    assert.equal(command.completionRate, 1 / 3);
    assert.equal(command.verifyPassRate, 0, 't3.1 failed its acceptance command; t1 has none, so t1.1 is no sample');
    assert.equal(command.verifyRuns, 1);
    assert.equal(command.canceled, 0);
    assert.equal(command.costReported, 0);
    assert.equal(command.attemptsPerTask, 4 / 3);
    assert.deepEqual(
      [command.wallTimeP50Ms, command.wallTimeP90Ms],
      [42_000, 42_000],
      'only t1 finished: tasks with a run in flight have no wall time yet',
    );
    const anthropic = lanes.rows.find((r) => r.lane === 'anthropic')!;
    assert.equal(anthropic.costReported, 3);
    assert.equal(anthropic.costPerCompletedUsd, null, 'no task completed on it');
    assert.ok(Math.abs(anthropic.costUsd - (0.0312 + 0.0425 + 0.0391)) < 1e-9);
    assert.equal(lanes.canary?.verdict, 'not-enough-data');
    assert.match(lanes.canary!.why, /not enough data/);
  });

  it('lists guard verdicts newest first with file:line evidence and the matched rule', () => {
    const { state: s, guards } = richProject();
    const view = buildPanelView(s, '/r', { guards }, NOW);
    assert.equal(view.guards.total, 4);
    assert.deepEqual(
      view.guards.recent.map((g) => `${g.guard} ${g.verdict} ${g.rule}`),
      [
        'merge-policy block merge-source',
        'conflict-markers block conflict-marker',
        'secret-scan pass secret',
        'conflict-markers pass conflict-marker',
      ],
    );
    assert.deepEqual(
      view.guards.recent[1]!.evidence.map((e) => e.where),
      ['src/users.py:41', 'src/users.py:47'],
    );
    assert.match(view.guards.recent[0]!.evidence[0]!.message, /brings in 9f8e7d6c5b4a from refs\/heads\/experiment/);
  });

  it('honest numbers: no verify rate without acceptance commands, cancels apart, no burn without reported cost', () => {
    const { state: s, trace } = richProject();
    for (const t of s.tasks) delete t.spec.acceptance;
    const t3 = s.tasks.find((t) => t.id === 't3')!;
    t3.state = 'CANCELED';
    const reported = buildPanelView(s, '/r', { guards: [], trace }, NOW);
    const command = reported.lanes.rows.find((r) => r.lane === 'command')!;
    assert.deepEqual([command.verifyPassRate, command.verifyRuns], [null, 0], 'no acceptance command: no rate');
    assert.deepEqual([command.completed, command.canceled, command.completionRate], [1, 1, 1 / 2]);
    assert.ok(reported.scheduler.available && reported.scheduler.signals?.burnRateUsdPerHour !== undefined);
    for (const r of s.runs) delete r.usage;
    const unreported = buildPanelView(s, '/r', { guards: [], trace }, NOW);
    assert.ok(unreported.scheduler.available && unreported.scheduler.signals);
    assert.equal(unreported.scheduler.signals.burnRateUsdPerHour, undefined, 'no run reported cost: no burn rate');
  });

  it("reads the scheduler's trace: last backpressure, signals, drain; no trace is said plainly", () => {
    const { state: s, trace } = richProject();
    const view = buildPanelView(s, '/r', { guards: [], trace }, NOW);
    assert.equal(view.scheduler.available, true);
    if (!view.scheduler.available) return;
    assert.equal(
      view.scheduler.lastBackpressure?.message,
      'no new run: backpressure: VERIFYING is full (2/2), so no new run starts',
    );
    assert.deepEqual(view.scheduler.signals?.failureStreak, { code: 'verify-failed', count: 2 });
    assert.equal(view.scheduler.signals?.stageWait.RUNNING?.waiting, 2);
    assert.equal(view.scheduler.drain?.kind, 'start');
    assert.deepEqual(
      view.scheduler.decisions.map((d) => d.kind),
      ['backpressure', 'breaker'],
    );
    assert.deepEqual(buildPanelView(s, '/r', { guards: [] }, NOW).scheduler, { available: false });
  });

  it('skips malformed trace fields instead of failing', () => {
    const view = buildPanelView(
      state(),
      '/r',
      {
        guards: [],
        trace: [
          { ts: iso(0), type: 'signals', stageWait: { RUNNING: { waiting: 'x' } }, failureStreak: 3 } as never,
          { ts: iso(1), type: 'decision' } as never,
        ],
      },
      NOW,
    );
    assert.equal(PanelView.safeParse(view).success, true);
    assert.deepEqual(view.scheduler, {
      available: true,
      decisions: [],
      lastBackpressure: null,
      signals: { ts: iso(0), stageWait: {} },
      drain: null,
    });
  });

  it('an empty project has empty sections, not invented numbers', () => {
    const view = buildPanelView(state(), '/r', { guards: [] }, NOW);
    assert.deepEqual(view.tasks, []);
    assert.deepEqual(view.breakers.lanes, []);
    assert.deepEqual(view.guards, { total: 0, recent: [] });
    assert.deepEqual(
      view.lanes.rows.map((r) => [r.lane, r.runs, r.completionRate, r.wallTimeP50Ms]),
      [['command', 0, null, null]],
    );
    assert.equal(view.lanes.canary, null);
  });

  it('keeps task rows free of the clock, so an unchanged task is identical later', () => {
    const { state: s } = richProject();
    const a = buildPanelView(s, '/r', { guards: [] }, NOW);
    const b = buildPanelView(s, '/r', { guards: [] }, NOW + 3_600_000);
    assert.deepEqual(a.tasks, b.tasks, 'an hour later, with running runs and waiting READY tasks');
  });
});

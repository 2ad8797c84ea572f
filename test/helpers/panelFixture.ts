import type { TraceLine } from '../../src/core/store/traceLog';
import type { GuardEvent } from '../../src/core/guards/guardLog';
import type { Run } from '../../src/core/model/run';
import type { Task } from '../../src/core/model/task';
import { ProjectState } from '../../src/core/store/projectState';

/**
 * Project states for the panel's tests, made with the real schemas (so every
 * default applies) and fixed times, so view models and pictures are stable.
 */
export const T0 = Date.parse('2025-03-04T10:00:00.000Z');
export const iso = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

type TaskInput = Partial<Omit<Task, 'spec'>> & {
  id: string;
  state: Task['state'];
  spec?: Partial<Task['spec']> & { title?: string };
};

export function task(input: TaskInput): Task {
  const { spec, ...rest } = input;
  return {
    baseCommit: 'a'.repeat(40),
    createdAt: iso(0),
    updatedAt: iso(0),
    attempts: 0,
    generation: 0,
    ...rest,
    spec: { title: `Task ${input.id}`, spec: '', files: [], dependsOn: [], priority: 50, ...spec },
  };
}

export function run(input: Partial<Run> & { id: string; taskId: string; state: Run['state'] }): Run {
  const attempt = input.attempt ?? Number(input.id.split('.')[1] ?? 1);
  return {
    lane: 'command',
    attempt,
    generation: 0,
    branch: `switchyard/${input.id}`,
    worktree: `/repo/.switchyard/worktrees/${input.id}`,
    baseCommit: 'a'.repeat(40),
    startedAt: iso(0),
    ...input,
  };
}

export function state(
  partial: {
    tasks?: Task[];
    runs?: Run[];
    settings?: Record<string, unknown>;
    breakers?: unknown;
    routing?: unknown;
  } = {},
): ProjectState {
  return ProjectState.parse({
    version: 1,
    settings: partial.settings ?? {},
    nextTaskNumber: (partial.tasks?.length ?? 0) + 1,
    tasks: partial.tasks ?? [],
    runs: partial.runs ?? [],
    revision: 1,
    breakers: partial.breakers ?? {},
    routing: partial.routing ?? { history: [] },
  });
}

/** A small project with something in every section: stages, a backpressure, breakers, guards, lanes, a canary. */
export function richProject(): { state: ProjectState; guards: GuardEvent[]; trace: TraceLine[] } {
  const tasks: Task[] = [
    task({
      id: 't1',
      state: 'DONE',
      attempts: 1,
      updatedAt: iso(120_000),
      lastRunId: 't1.1',
      spec: { title: 'Add the changelog entry', files: ['CHANGELOG.md'] },
    }),
    task({
      id: 't2',
      state: 'RUNNING',
      attempts: 1,
      updatedAt: iso(290_000),
      lastRunId: 't2.1',
      spec: { title: 'Rename the config loader', files: ['src/config.ts'], lane: 'anthropic' },
    }),
    task({
      id: 't3',
      state: 'VERIFYING',
      attempts: 2,
      updatedAt: iso(295_000),
      lastRunId: 't3.2',
      spec: { title: 'Fix the flaky user test', acceptance: 'npm test -- user' },
    }),
    task({
      id: 't4',
      state: 'VERIFYING',
      attempts: 1,
      updatedAt: iso(296_000),
      lastRunId: 't4.1',
      spec: { title: 'Document the CLI flags' },
    }),
    task({ id: 't5', state: 'READY', updatedAt: iso(60_000), spec: { title: 'Tidy the README badges', priority: 40 } }),
    task({
      id: 't6',
      state: 'READY',
      updatedAt: iso(100_000),
      spec: { title: 'Upgrade the lint rules', priority: 70 },
    }),
    task({
      id: 't7',
      state: 'READY',
      updatedAt: iso(100_000),
      spec: { title: 'Use the new config loader', dependsOn: ['t2'] },
    }),
    task({
      id: 't8',
      state: 'FAILED',
      attempts: 2,
      updatedAt: iso(250_000),
      lastRunId: 't8.2',
      failureReason:
        'exceeded max attempts (2): last attempt failed with: pytest exit 1 in tests/test_user.py::test_create',
      spec: { title: 'Create users through the API' },
    }),
    task({
      id: 't9',
      state: 'BLOCKED',
      updatedAt: iso(250_000),
      blockedBy: ['t8'],
      spec: { title: 'List users through the API', dependsOn: ['t8'] },
    }),
    task({ id: 't10', state: 'CANCELED', updatedAt: iso(200_000), spec: { title: 'Try the experimental bundler' } }),
  ];
  const usage = (costUsd: number) => ({
    inputTokens: Math.round(costUsd * 200_000),
    outputTokens: Math.round(costUsd * 20_000),
    costUsd,
  });
  const runs: Run[] = [
    run({
      id: 't1.1',
      taskId: 't1',
      state: 'SUCCEEDED',
      startedAt: iso(10_000),
      endedAt: iso(52_000),
      durationMs: 42_000,
      diffStat: { files: 1, insertions: 3, deletions: 0 },
      integration: { branch: 'switchyard/integration', commit: 'b'.repeat(40) },
    }),
    run({
      id: 't2.1',
      taskId: 't2',
      lane: 'anthropic',
      state: 'RUNNING',
      startedAt: iso(290_000),
      usage: usage(0.0312),
    }),
    run({
      id: 't3.1',
      taskId: 't3',
      state: 'FAILED',
      startedAt: iso(100_000),
      durationMs: 61_000,
      failureCode: 'verify-failed',
      failureReason: '`npm test -- user` exited 1: 1 failing: user › creates a user (expected 201, got 500)',
    }),
    run({
      id: 't3.2',
      taskId: 't3',
      state: 'RUNNING',
      startedAt: iso(200_000),
      parentRunId: 't3.1',
      retryReason: 'verify-failed: the acceptance command failed',
      resumes: 1,
      resumeCounts: { replayed: 4, resent: 1, rerun: 0, uncertain: 1 },
    }),
    run({ id: 't4.1', taskId: 't4', state: 'RUNNING', startedAt: iso(230_000) }),
    run({
      id: 't8.1',
      taskId: 't8',
      lane: 'anthropic',
      state: 'FAILED',
      startedAt: iso(130_000),
      durationMs: 48_000,
      usage: usage(0.0425),
      failureCode: 'verify-failed',
      failureReason: 'pytest exit 1 in tests/test_user.py::test_create',
    }),
    run({
      id: 't8.2',
      taskId: 't8',
      lane: 'anthropic',
      state: 'FAILED',
      startedAt: iso(190_000),
      durationMs: 52_000,
      usage: usage(0.0391),
      failureCode: 'verify-failed',
      failureReason: 'pytest exit 1 in tests/test_user.py::test_create',
      salvage: { branch: 'switchyard/salvage/t8.2', commit: 'c'.repeat(40), files: 2 },
    }),
  ];
  const projectState = state({
    tasks,
    runs,
    settings: { wip: { RUNNING: 4, VERIFYING: 2, REVIEWING: 3, INTEGRATING: 1 } },
    breakers: {
      anthropic: { state: 'open', since: iso(280_000), code: 'provider-rejected', recent: [], successes: 0, opened: 1 },
      command: {
        state: 'closed',
        since: iso(0),
        recent: [{ code: 'verify-failed', at: iso(161_000) }],
        successes: 0,
        opened: 0,
      },
    },
    routing: {
      canary: {
        lane: 'anthropic',
        baselineLane: 'command',
        startedAt: iso(-60_000),
        windowMs: 3_600_000,
        holdBelow: 0.8,
        expandAtCost: 0.5,
        minSamples: 5,
      },
      history: [],
    },
  });
  const guard = (e: Partial<GuardEvent> & Pick<GuardEvent, 'guard' | 'verdict' | 'rule'>): GuardEvent =>
    ({
      v: 1,
      type: e.verdict === 'error' ? 'guard.error' : 'guard.verdict',
      ts: iso(60_000),
      evidence: [],
      durationMs: 12,
      ...e,
    }) as GuardEvent;
  const guards: GuardEvent[] = [
    guard({
      guard: 'conflict-markers',
      verdict: 'pass',
      rule: 'conflict-marker',
      runId: 't1.1',
      ts: iso(53_000),
      durationMs: 8.4,
    }),
    guard({ guard: 'secret-scan', verdict: 'pass', rule: 'secret', runId: 't1.1', ts: iso(53_100), durationMs: 131.5 }),
    guard({
      guard: 'conflict-markers',
      verdict: 'block',
      rule: 'conflict-marker',
      runId: 't8.2',
      ts: iso(242_000),
      durationMs: 9.1,
      evidence: [
        { file: 'src/users.py', line: 41, message: 'conflict marker <<<<<<< HEAD' },
        { file: 'src/users.py', line: 47, message: 'conflict marker >>>>>>> feature' },
      ],
    }),
    guard({
      guard: 'merge-policy',
      verdict: 'block',
      rule: 'merge-source',
      subject: 'push origin refs/heads/main',
      ts: iso(243_000),
      durationMs: 55,
      evidence: [
        {
          message:
            'merge 1a2b3c4d5e6f brings in 9f8e7d6c5b4a from refs/heads/experiment, which is not reachable from a ref the policy allows for main (origin/main, release/*)',
        },
      ],
    }),
  ];
  const trace: TraceLine[] = [
    {
      ts: iso(1_000),
      type: 'drain',
      kind: 'start',
      message: 'drain started: RUNNING 0/4 · VERIFYING 0/2 · REVIEWING 0/3 · INTEGRATING 0/1',
    },
    {
      ts: iso(280_500),
      type: 'decision',
      kind: 'breaker',
      message:
        'lane anthropic gets no new run: breaker open since 2025-03-04T10:04:40.000Z (provider-rejected); probe after 2025-03-04T10:06:40.000Z',
    },
    {
      ts: iso(296_500),
      type: 'decision',
      kind: 'backpressure',
      message: 'no new run: backpressure: VERIFYING is full (2/2), so no new run starts',
    },
    {
      ts: iso(297_000),
      type: 'signals',
      wip: 'RUNNING 1/4 · VERIFYING 2/2 (full)',
      stageWait: {
        RUNNING: { waiting: 2, oldestMs: 237_000 },
        VERIFYING: { waiting: 0, oldestMs: 0 },
        REVIEWING: { waiting: 0, oldestMs: 0 },
        INTEGRATING: { waiting: 0, oldestMs: 0 },
      },
      failureStreak: { code: 'verify-failed', count: 2 },
      burnRateUsdPerHour: 0.4512,
    },
  ];
  return { state: projectState, guards, trace };
}

/** `n` tasks in a realistic mix of states (a big queue), with one run for each task that started. */
export function bigProject(n: number): ProjectState {
  const states: Task['state'][] = ['READY', 'READY', 'READY', 'DONE', 'DONE', 'FAILED', 'BLOCKED', 'CANCELED'];
  const tasks: Task[] = [];
  const runs: Run[] = [];
  for (let i = 1; i <= n; i++) {
    let s = states[i % states.length]!;
    if (i <= 4) s = 'RUNNING';
    const id = `t${i}`;
    const started = s !== 'READY' && s !== 'BLOCKED';
    tasks.push(
      task({
        id,
        state: s,
        attempts: started ? 1 : 0,
        updatedAt: iso(i * 10),
        lastRunId: started ? `${id}.1` : undefined,
        ...(s === 'BLOCKED' ? { blockedBy: [`t${i - 1}`] } : {}),
        ...(s === 'FAILED' ? { failureReason: `\`agent\` failed with exit code 1; stderr: task ${i} broke` } : {}),
        spec: { title: `Queue task number ${i}: update module ${i % 97}`, priority: (i * 37) % 101 },
      }),
    );
    if (started)
      runs.push(
        run({
          id: `${id}.1`,
          taskId: id,
          state: s === 'DONE' ? 'SUCCEEDED' : s === 'RUNNING' ? 'RUNNING' : s === 'CANCELED' ? 'CANCELED' : 'FAILED',
          startedAt: iso(i * 10),
          ...(s === 'RUNNING' ? {} : { durationMs: 1_000 + (i % 50) * 100 }),
        }),
      );
  }
  return state({ tasks, runs, settings: { wip: { RUNNING: 4 } } });
}

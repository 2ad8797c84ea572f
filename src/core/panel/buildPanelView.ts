import { basename } from 'node:path';
import type { TraceLine } from '../store/traceLog';
import type { GuardEvent } from '../guards/guardLog';
import type { Run } from '../model/run';
import { STAGES } from '../model/taskStates';
import { taskPullRequest, type TaskPullRequest } from '../model/taskPullRequest';
import { breakerAllows, halfOpenAllowance } from '../scheduler/circuitBreaker';
import { countStages, startVerdict } from '../scheduler/stageLimits';
import type { ProjectState } from '../store/projectState';
import { recentGuardRows } from './guardRows';
import { laneRows } from './laneRows';
import type {
  Breaker,
  Breakers,
  Guards,
  Header,
  PanelPullRequest,
  PanelTask,
  PanelView,
  Pipeline,
} from './panelProtocol';
import { readyFacts, taskNumber, type ReadyFacts } from './readyOrder';
import { laneCosts } from '../scheduler/laneCosts';
import { costPenalty } from '../scheduler/priorityScore';
import { schedulerFromTrace } from './schedulerTrace';

/** How many guard verdicts the Guards section lists. */
export const GUARD_ROWS = 50;

/** What the panel shows besides the project state: the guard log and the scheduler trace, as far as they exist. */
export interface PanelSources {
  /** Guard verdicts from `.switchyard/guards.jsonl`, oldest first (the newest ones at least). */
  guards: readonly GuardEvent[];
  /** How many verdicts the log holds in all (default: `guards.length`). */
  guardTotal?: number;
  /** Why part of the guard log could not be read. */
  guardProblem?: string;
  /** Lines of `.switchyard/trace.jsonl`, oldest first; undefined when there is no trace yet. */
  trace?: readonly TraceLine[];
  /** Run worktrees on disk: how many, and their size when known. */
  worktreeUsage?: { count: number; bytes?: number };
  /** The state holds only the `shown` newest finished tasks (`more`: older ones exist); absent: every task. */
  finished?: { shown: number; more: boolean };
}

/**
 * The whole queue panel as data, from the stored project state, the guard
 * log and the scheduler trace: a pure function (time comes in as `now`).
 * Task rows hold nothing that changes with the clock, so a diff of two
 * views only carries the tasks that really changed.
 */
export function buildPanelView(state: ProjectState, root: string, sources: PanelSources, now = Date.now()): PanelView {
  const runsByTask = new Map<string, Run[]>();
  for (const run of state.runs) {
    const list = runsByTask.get(run.taskId);
    if (list) list.push(run);
    else runsByTask.set(run.taskId, [run]);
  }
  const ready = readyFacts(state, now);
  const tasks = state.tasks.map((task) => panelTask(task, state, runsByTask.get(task.id) ?? [], ready.get(task.id)));
  return {
    header: header(state, root, sources.worktreeUsage, sources.finished),
    pipeline: pipeline(state, now),
    scheduler: withoutUnreportedBurn(schedulerFromTrace(sources.trace), state),
    breakers: breakers(state),
    lanes: lanesOver(laneRows(state, now), sources.finished),
    guards: guards(sources),
    tasks,
  };
}

/** No burn rate when no run reported its usage: a $0.0000/h beside "cost not reported" says what nobody measured. */
function withoutUnreportedBurn(scheduler: PanelView['scheduler'], state: ProjectState): PanelView['scheduler'] {
  if (!scheduler.available || scheduler.signals?.burnRateUsdPerHour === undefined) return scheduler;
  if (state.runs.some((r) => r.usage)) return scheduler;
  const { burnRateUsdPerHour: _unreported, ...signals } = scheduler.signals!;
  return { ...scheduler, signals };
}

function panelTask(
  task: ProjectState['tasks'][number],
  state: ProjectState,
  runs: readonly Run[],
  ready: ReadyFacts | undefined,
): PanelTask {
  const last = latestRun(task.lastRunId, runs);
  const pr = taskPullRequest(task, runs);
  return {
    id: task.id,
    n: taskNumber(task.id),
    title: task.spec.title,
    state: task.state,
    lane: task.spec.lane ?? state.settings.defaultLane,
    laneOverride: task.spec.lane !== undefined,
    priority: task.spec.priority,
    attempts: task.attempts,
    since: task.updatedAt,
    ...(ready ? { key: ready.key, ...(ready.wait ? { wait: ready.wait } : {}), unblocks: ready.unblocks } : {}),
    ...(task.spec.urgent ? { urgent: { ...task.spec.urgent } } : {}),
    ...(task.blockedBy?.length ? { blockedBy: [...task.blockedBy] } : {}),
    ...(task.failureReason ? { failureReason: task.failureReason } : {}),
    ...(last
      ? {
          run: {
            id: last.id,
            state: last.state,
            attempt: last.attempt,
            startedAt: last.startedAt,
            ...(last.durationMs !== undefined ? { durationMs: last.durationMs } : {}),
            ...(last.usage ? { costUsd: last.usage.costUsd } : {}),
            ...(last.failureCode ? { failureCode: last.failureCode } : {}),
          },
        }
      : {}),
    runs: runs.length,
    ...(pr ? { pr: panelPullRequest(pr) } : {}),
  };
}

/** A pull request as a task's row carries it (the detail adds where it goes and its warnings). */
export function panelPullRequest(pr: TaskPullRequest): PanelPullRequest {
  return {
    number: pr.number,
    url: pr.url,
    state: pr.state,
    checks: pr.checks.map((c) => ({
      name: c.name,
      state: c.state,
      ...(c.conclusion ? { conclusion: c.conclusion } : {}),
    })),
  };
}

/** The task's last run: `lastRunId` when it is known, else the latest started. */
function latestRun(lastRunId: string | undefined, runs: readonly Run[]): Run | undefined {
  if (lastRunId) {
    const named = runs.find((r) => r.id === lastRunId);
    if (named) return named;
  }
  let latest: Run | undefined;
  for (const r of runs)
    if (!latest || r.startedAt > latest.startedAt || (r.startedAt === latest.startedAt && r.attempt > latest.attempt))
      latest = r;
  return latest;
}

/** Lane figures over a partial history say so. */
function lanesOver(lanes: PanelView['lanes'], finished: PanelSources['finished']): PanelView['lanes'] {
  return finished ? { ...lanes, over: { finished: finished.shown, more: finished.more } } : lanes;
}

function header(
  state: ProjectState,
  root: string,
  worktrees: PanelSources['worktreeUsage'],
  finished: PanelSources['finished'],
): Header {
  const counts: Record<string, number> = {};
  for (const t of state.tasks) counts[t.state] = (counts[t.state] ?? 0) + 1;
  return {
    repo: basename(root) || root,
    defaultLane: state.settings.defaultLane,
    agingPerMinute: state.settings.agingPerMinute,
    total: state.tasks.length,
    counts,
    lanePenalty: Object.fromEntries(Object.entries(laneCosts(state)).map(([lane, usd]) => [lane, costPenalty(usd)])),
    ...(worktrees
      ? { worktrees: { count: worktrees.count, ...(worktrees.bytes !== undefined ? { bytes: worktrees.bytes } : {}) } }
      : {}),
    ...(finished ? { finished: { shown: finished.shown, more: finished.more } } : {}),
  };
}

function pipeline(state: ProjectState, now: number): Pipeline {
  const counts = countStages(state.tasks.map((t) => t.state));
  const limits = state.settings.wip;
  const members = new Map<string, string[]>(STAGES.map((s) => [s, []]));
  for (const t of state.tasks) members.get(t.state)?.push(t.id);
  const verdict = startVerdict(counts, limits);
  const stages: Pipeline['stages'] = STAGES.map((stage) => ({
    stage,
    count: counts[stage],
    limit: limits[stage],
    tasks: members.get(stage)!.sort((a, b) => taskNumber(a) - taskNumber(b)),
  }));
  return {
    stages,
    blocked: verdict.ok ? null : { backpressure: verdict.backpressure, reason: verdict.reason },
    ready: state.tasks.filter((t) => t.state === 'READY').length,
    paused: pausedLanes(state, now),
  };
}

/**
 * The lanes whose breaker keeps their READY tasks from starting now, as the scheduler asks it (breakerAllows with the
 * lane's runs in flight), with how many READY tasks wait for each.
 */
function pausedLanes(state: ProjectState, now: number): Pipeline['paused'] {
  const waiting = new Map<string, number>();
  for (const t of state.tasks) {
    if (t.state !== 'READY') continue;
    const lane = t.spec.lane ?? state.settings.defaultLane;
    waiting.set(lane, (waiting.get(lane) ?? 0) + 1);
  }
  const inFlight = new Map<string, number>();
  for (const r of state.runs) if (r.state === 'RUNNING') inFlight.set(r.lane, (inFlight.get(r.lane) ?? 0) + 1);
  const paused: Pipeline['paused'] = [];
  for (const [lane, ready] of [...waiting].sort(([a], [b]) => a.localeCompare(b))) {
    const verdict = breakerAllows(state.breakers[lane], inFlight.get(lane) ?? 0, now, state.settings.breaker);
    if (!verdict.allow) paused.push({ lane, ready, reason: verdict.reason });
  }
  return paused;
}

function breakers(state: ProjectState): Breakers {
  const settings = state.settings.breaker;
  const lanes = Object.entries(state.breakers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([key, b]): Breaker => ({
        key,
        state: b.state === 'half-open' ? 'probing' : b.state,
        since: b.since,
        ...(b.code ? { code: b.code } : {}),
        opened: b.opened,
        successes: b.successes,
        ...(b.state === 'half-open' ? { allowance: halfOpenAllowance(b) } : {}),
        ...(b.state === 'open'
          ? { probeAfter: new Date(Date.parse(b.since) + settings.cooldownMs).toISOString() }
          : {}),
        recent: b.recent.map((r) => ({ ...r })),
      }),
    );
  return {
    lanes,
    settings: {
      failures: settings.failures,
      windowMs: settings.windowMs,
      cooldownMs: settings.cooldownMs,
      closeAfter: settings.closeAfter,
    },
  };
}

function guards(sources: PanelSources): Guards {
  return {
    total: sources.guardTotal ?? sources.guards.length,
    recent: recentGuardRows(sources.guards, GUARD_ROWS),
    ...(sources.guardProblem ? { problem: sources.guardProblem } : {}),
  };
}

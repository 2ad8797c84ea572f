import type { RunLogLine } from '../store/runFiles';
import type { PullRequestRecord } from '../model/pullRequestRecord';
import { latestPullRequest } from './pullRequestLines';
import type { TraceLine } from '../store/traceLog';
import type { Run } from '../model/run';
import type { Task } from '../model/task';
import { describeBreaker } from '../scheduler/circuitBreaker';
import { countStages, describeUsage } from '../scheduler/stageLimits';
import type { ProjectState } from '../store/projectState';

/** What kind of decision a line records, for the readable account. */
export type DecisionKind =
  | 'started'
  | 'waited'
  | 'retried'
  | 'blocked'
  | 'verified'
  | 'reviewed'
  | 'merged'
  | 'failed'
  | 'done'
  | 'canceled'
  | 'other';

export interface ReportEvent {
  ts: string;
  kind: DecisionKind;
  run?: string;
  message: string;
}

export interface TaskReport {
  id: string;
  title: string;
  state: Task['state'];
  lane: string;
  attempts: number;
  runs: { id: string; state: Run['state']; attempt: number; failureCode?: string }[];
  integration?: Task['integration'];
  /** Pull-request mode: the pull request of the task's latest run that opened one, with its required checks. */
  pullRequest?: PullRequestRecord;
  failureReason?: string;
  blockedBy?: string[];
  events: ReportEvent[];
}

export interface ProjectReport {
  pipeline: string;
  breakers: string[];
  /** Scheduler decisions not about one task: backpressure, breakers, drains. */
  scheduler: ReportEvent[];
  tasks: TaskReport[];
  /**
   * A report of the recent tasks only: `tasks` holds the unfinished ones and the `shown` newest finished ones;
   * `more`: older finished tasks were left out. Absent: every task.
   */
  finished?: { shown: number; more: boolean };
}

/**
 * The account of why things happened: per task, its runs' decisions (from
 * `runs/<id>/events.jsonl`) and the scheduler's decisions about it (from the
 * trace), in time order, each tagged with what kind of decision it was.
 */
export function buildReport(
  state: ProjectState,
  runLogs: ReadonlyMap<string, readonly RunLogLine[]>,
  trace: readonly TraceLine[],
): ProjectReport {
  const byTask = new Map<string, ReportEvent[]>();
  const scheduler: ReportEvent[] = [];
  const push = (taskId: string, event: ReportEvent): void => {
    const list = byTask.get(taskId) ?? [];
    list.push(event);
    byTask.set(taskId, list);
  };
  for (const line of trace) {
    if (line.type !== 'decision' || typeof line.message !== 'string') continue;
    // The run's own log has the same line: its end, its lane's breaker news, and its start (`run … started: …`, which
    // says the same as the scheduler's `start … as …` and more).
    if (line.kind === 'finish' || line.kind === 'breaker' || line.kind === 'start') continue;
    const event: ReportEvent = {
      ts: line.ts,
      kind: classify(line.message, line.kind),
      message: line.message,
      ...(typeof line.run === 'string' ? { run: line.run } : {}),
    };
    if (typeof line.task === 'string') push(line.task, event);
    else scheduler.push(event);
  }
  for (const run of state.runs) {
    for (const line of runLogs.get(run.id) ?? []) {
      if (line.type !== 'decision' || typeof line.message !== 'string') continue;
      push(run.taskId, { ts: line.ts, kind: classify(line.message), run: run.id, message: line.message });
    }
  }
  const tasks = state.tasks.map(
    (task): TaskReport => ({
      id: task.id,
      title: task.spec.title,
      state: task.state,
      lane: task.spec.lane ?? state.settings.defaultLane,
      attempts: task.attempts,
      runs: state.runs
        .filter((r) => r.taskId === task.id)
        .map((r) => ({
          id: r.id,
          state: r.state,
          attempt: r.attempt,
          ...(r.failureCode ? { failureCode: r.failureCode } : {}),
        })),
      ...(task.integration ? { integration: task.integration } : {}),
      ...pullRequestOf(state, task.id),
      ...(task.failureReason ? { failureReason: task.failureReason } : {}),
      ...(task.blockedBy ? { blockedBy: task.blockedBy } : {}),
      events: (byTask.get(task.id) ?? []).sort((a, b) => a.ts.localeCompare(b.ts)),
    }),
  );
  return {
    pipeline: describeUsage(countStages(state.tasks.map((t) => t.state)), state.settings.wip),
    breakers: Object.entries(state.breakers).map(([lane, b]) => describeBreaker(lane, b)),
    scheduler,
    tasks,
  };
}

function pullRequestOf(state: ProjectState, taskId: string): { pullRequest?: PullRequestRecord } {
  const pr = latestPullRequest(state, taskId);
  return pr ? { pullRequest: pr } : {};
}

function classify(message: string, kind?: string): DecisionKind {
  if (kind === 'start' || /^run \S+ (started|resumed)/.test(message)) return 'started';
  if (kind === 'blocked' || /BLOCKED/.test(message)) return 'blocked';
  if (kind === 'cancel' || /STALE_RESULT|canceled/.test(message)) return 'canceled';
  if (kind === 'wait' || kind === 'backpressure' || /^waiting for|^got a .* slot|waits (on|for)/.test(message))
    return 'waited';
  if (/^retrying|fallback lane/.test(message)) return 'retried';
  if (/^review|requested changes/.test(message)) return 'reviewed';
  if (/^verifying|^no acceptance command|^guards on the change/.test(message)) return 'verified';
  if (
    /^merged |^nothing new to merge|^pushed |push of|^opened pull request|^pull request #\d+ (merged|is already)/.test(
      message,
    )
  )
    return 'merged';
  if (/ FAILED/.test(message)) return 'failed';
  if (/ DONE/.test(message)) return 'done';
  return 'other';
}

/** The kinds shown without `--trace`: why it started, waited, was retried or blocked, and how it ended. */
export const SUMMARY_KINDS: ReadonlySet<DecisionKind> = new Set([
  'started',
  'waited',
  'retried',
  'blocked',
  'reviewed',
  'merged',
  'failed',
  'done',
  'canceled',
]);

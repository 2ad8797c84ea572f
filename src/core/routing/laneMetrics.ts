import type { Run } from '../model/run';
import type { ProjectState } from '../store/projectState';

/** A lane's production numbers over a time range: what a canary is judged on. */
export interface LaneMetrics {
  lane: string;
  /** Tasks with at least one run on the lane in the range. */
  tasks: number;
  runs: number;
  /** Tasks DONE through a run of this lane. */
  completed: number;
  /** Of the tasks not canceled by the user, the share completed (a cancel is no failure of the lane). */
  completionRate: number | null;
  /** Tasks with a run on the lane that the user canceled: counted apart, not in the completion rate. */
  canceled: number;
  /**
   * Of the runs that reached verification with an acceptance command, the share that passed it; null when no task
   * on the lane has an acceptance command (a run without one verifies nothing).
   */
  verifyPassRate: number | null;
  /** The sample of verifyPassRate: runs that reached an acceptance command. */
  verifyRuns: number;
  wallTimeP50Ms: number | null;
  wallTimeP90Ms: number | null;
  costUsd: number;
  costPerCompletedUsd: number | null;
  attemptsPerTask: number | null;
  topFailures: { reason: string; count: number }[];
}

export function laneMetrics(state: ProjectState, lane: string, fromMs: number, toMs: number): LaneMetrics {
  const runs = state.runs.filter((r) => r.lane === lane && inRange(r, fromMs, toMs));
  const byTask = new Map<string, Run[]>();
  for (const run of runs) byTask.set(run.taskId, [...(byTask.get(run.taskId) ?? []), run]);
  const tasks = state.tasks.filter((t) => byTask.has(t.id));
  const completed = tasks.filter(
    (t) => t.state === 'DONE' && byTask.get(t.id)!.some((r) => r.id === t.lastRunId),
  ).length;
  const withAcceptance = new Set(tasks.filter((t) => t.spec.acceptance?.trim()).map((t) => t.id));
  const verified = runs.filter(
    (r) => withAcceptance.has(r.taskId) && (r.state === 'SUCCEEDED' || r.failureCode === 'verify-failed'),
  );
  const canceled = tasks.filter((t) => t.state === 'CANCELED').length;
  const passed = verified.filter((r) => r.state === 'SUCCEEDED').length;
  const wallTimes = [...byTask.values()]
    .map((rs) => rs.reduce((sum, r) => sum + (r.durationMs ?? 0), 0))
    .sort((a, b) => a - b);
  const costUsd = runs.reduce((sum, r) => sum + (r.usage?.costUsd ?? 0), 0);
  const failures = new Map<string, number>();
  for (const run of runs) {
    if (run.state !== 'FAILED') continue;
    const reason = `${run.failureCode ?? 'failed'}: ${(run.failureReason ?? '').slice(0, 100)}`;
    failures.set(reason, (failures.get(reason) ?? 0) + 1);
  }
  return {
    lane,
    tasks: tasks.length,
    runs: runs.length,
    completed,
    completionRate: tasks.length - canceled > 0 ? completed / (tasks.length - canceled) : null,
    canceled,
    verifyPassRate: verified.length ? passed / verified.length : null,
    verifyRuns: verified.length,
    wallTimeP50Ms: percentile(wallTimes, 0.5),
    wallTimeP90Ms: percentile(wallTimes, 0.9),
    costUsd,
    costPerCompletedUsd: completed ? costUsd / completed : null,
    attemptsPerTask: tasks.length ? runs.length / tasks.length : null,
    topFailures: [...failures]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, 3),
  };
}

function inRange(run: Run, fromMs: number, toMs: number): boolean {
  const t = Date.parse(run.startedAt);
  return t >= fromMs && t <= toMs;
}

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

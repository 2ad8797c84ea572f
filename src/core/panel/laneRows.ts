import { canaryReport } from '../routing/canaryReport';
import { laneMetrics } from '../routing/laneMetrics';
import type { ProjectState } from '../store/projectState';
import type { Lanes } from './panelProtocol';

/**
 * Wall time per task on the lane (the sum of its runs' durations), p50 and
 * p90, over the tasks none of whose runs on the lane is still going: a run in
 * flight has no duration yet and would count as 0 ms.
 */
export function finishedWallTimes(
  state: ProjectState,
  lane: string,
): { wallTimeP50Ms: number | null; wallTimeP90Ms: number | null; wallTimeTasks: number } {
  const byTask = new Map<string, number | null>();
  for (const run of state.runs) {
    if (run.lane !== lane) continue;
    const sum = byTask.get(run.taskId);
    if (sum === null) continue;
    byTask.set(run.taskId, run.durationMs === undefined ? null : (sum ?? 0) + run.durationMs);
  }
  const times = [...byTask.values()].filter((v): v is number => v !== null).sort((a, b) => a - b);
  const at = (p: number): number | null =>
    times.length ? times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]! : null;
  return { wallTimeP50Ms: at(0.5), wallTimeP90Ms: at(0.9), wallTimeTasks: times.length };
}

/**
 * Lane metrics per lane over every recorded run (the canary report's
 * numbers: completion rate, verify pass rate, wall time per task p50/p90,
 * cost per completed task, attempts per task), for the lanes that have runs
 * plus the default lane; and the running canary's verdict, if one runs.
 */
export function laneRows(state: ProjectState, now: number): Lanes {
  const lanes = new Set<string>([state.settings.defaultLane]);
  const reported = new Map<string, number>();
  for (const run of state.runs) {
    lanes.add(run.lane);
    if (run.usage) reported.set(run.lane, (reported.get(run.lane) ?? 0) + 1);
  }
  const rows = [...lanes].sort().map((lane) => {
    const m = laneMetrics(state, lane, 0, now);
    return {
      lane,
      isDefault: lane === state.settings.defaultLane,
      tasks: m.tasks,
      runs: m.runs,
      completed: m.completed,
      completionRate: m.completionRate,
      verifyPassRate: m.verifyPassRate,
      canceled: m.canceled,
      verifyRuns: m.verifyRuns,
      ...finishedWallTimes(state, lane),
      costUsd: m.costUsd,
      costReported: reported.get(lane) ?? 0,
      costPerCompletedUsd: m.costPerCompletedUsd,
      attemptsPerTask: m.attemptsPerTask,
    };
  });
  const canary = state.routing.canary;
  if (!canary) return { rows, canary: null };
  const report = canaryReport(state, canary, now);
  return {
    rows,
    canary: {
      lane: canary.lane,
      baselineLane: canary.baselineLane,
      startedAt: canary.startedAt,
      windowEnds: new Date(Date.parse(canary.startedAt) + canary.windowMs).toISOString(),
      verdict: report.verdict,
      why: report.why,
    },
  };
}

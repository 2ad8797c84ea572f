import type { ProjectState } from '../store/projectState';
import { laneMetrics, type LaneMetrics } from './laneMetrics';
import type { Canary } from '../model/routingState';

export type CanaryVerdict = 'hold' | 'continue' | 'expand-candidate' | 'not-enough-data';

export interface CanaryReport {
  canary: Canary;
  window: { from: string; to: string; baselineFrom: string };
  canaryMetrics: LaneMetrics;
  baselineMetrics: LaneMetrics;
  /** canary completion rate ÷ baseline completion rate */
  completionRatio: number | null;
  /** canary cost per completed task ÷ baseline's */
  costRatio: number | null;
  verdict: CanaryVerdict;
  why: string;
}

/**
 * Judges the canary on recorded runs with the thresholds stored when it
 * started. The canary lane counts from the start over the window; the
 * baseline lane over the same length before the start and during the window.
 */
export function canaryReport(state: ProjectState, canary: Canary, now = Date.now()): CanaryReport {
  const start = Date.parse(canary.startedAt);
  const to = Math.min(now, start + canary.windowMs);
  const baselineFrom = start - canary.windowMs;
  const c = laneMetrics(state, canary.lane, start, to);
  const b = laneMetrics(state, canary.baselineLane, baselineFrom, to);
  const completionRatio = c.completionRate !== null && b.completionRate ? c.completionRate / b.completionRate : null;
  const costRatio =
    c.costPerCompletedUsd !== null && b.costPerCompletedUsd ? c.costPerCompletedUsd / b.costPerCompletedUsd : null;
  const report = {
    canary,
    window: { from: iso(start), to: iso(to), baselineFrom: iso(baselineFrom) },
    canaryMetrics: c,
    baselineMetrics: b,
    completionRatio,
    costRatio,
  };
  return { ...report, ...verdict(canary, c, b, completionRatio, costRatio) };
}

function verdict(
  canary: Canary,
  c: LaneMetrics,
  b: LaneMetrics,
  completionRatio: number | null,
  costRatio: number | null,
): { verdict: CanaryVerdict; why: string } {
  if (c.tasks < canary.minSamples || b.tasks < canary.minSamples) {
    return {
      verdict: 'not-enough-data',
      why: `not enough data: ${c.tasks} canary and ${b.tasks} baseline task(s); at least ${canary.minSamples} each are needed`,
    };
  }
  const pct = (x: number | null): string => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
  if (completionRatio === null || completionRatio < canary.holdBelow) {
    return {
      verdict: 'hold',
      why:
        `completion ${pct(c.completionRate)} (${c.completed}/${c.tasks}) is ` +
        `${completionRatio === null ? 'not comparable' : `${pct(completionRatio)} of`} the baseline's ` +
        `${pct(b.completionRate)} (${b.completed}/${b.tasks}); hold below ${pct(canary.holdBelow)}`,
    };
  }
  if (costRatio !== null && costRatio <= canary.expandAtCost) {
    return {
      verdict: 'expand-candidate',
      why: `completion holds at ${pct(completionRatio)} of the baseline and cost per completed task is ${pct(costRatio)} of it (expand at ≤ ${pct(canary.expandAtCost)})`,
    };
  }
  return {
    verdict: 'continue',
    why: `completion holds at ${pct(completionRatio)} of the baseline; cost per completed task is ${pct(costRatio)} of it (expand at ≤ ${pct(canary.expandAtCost)})`,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

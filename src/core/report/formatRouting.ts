import type { CanaryReport } from '../routing/canaryReport';
import type { LaneMetrics } from '../routing/laneMetrics';
import type { RoutingChange } from '../model/routingState';
import { formatMs } from '../text/formatMs';
import { table } from '../text/textTable';

const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const usd = (x: number | null): string => (x === null ? '—' : `$${x.toFixed(4)}`);
const ms = (x: number | null): string => (x === null ? '—' : formatMs(x));

export function formatCanaryReport(r: CanaryReport): string {
  const row = (label: string, m: LaneMetrics): string[] => [
    label,
    m.lane,
    String(m.tasks),
    `${pct(m.completionRate)} (${m.completed}/${m.tasks})`,
    pct(m.verifyPassRate),
    `${ms(m.wallTimeP50Ms)} / ${ms(m.wallTimeP90Ms)}`,
    usd(m.costPerCompletedUsd),
    m.attemptsPerTask === null ? '—' : m.attemptsPerTask.toFixed(2),
  ];
  const lines = [
    `canary ${r.canary.lane} vs baseline ${r.canary.baselineLane}, started ${r.canary.startedAt}`,
    `window: canary ${r.window.from} → ${r.window.to}; baseline from ${r.window.baselineFrom}`,
    `thresholds (fixed at start): hold below ${pct(r.canary.holdBelow)} of baseline completion; expand at cost ≤ ${pct(r.canary.expandAtCost)}; at least ${r.canary.minSamples} tasks each`,
    '',
    table(
      ['', 'LANE', 'TASKS', 'COMPLETION', 'VERIFY PASS', 'WALL p50 / p90', 'COST/COMPLETED', 'ATTEMPTS/TASK'],
      [row('canary', r.canaryMetrics), row('baseline', r.baselineMetrics)],
    ),
    '',
    `completion ratio ${pct(r.completionRatio)}, cost ratio ${pct(r.costRatio)}`,
  ];
  for (const [label, m] of [
    ['canary', r.canaryMetrics],
    ['baseline', r.baselineMetrics],
  ] as const) {
    if (m.topFailures.length)
      lines.push(`top failures (${label}): ${m.topFailures.map((f) => `${f.count}× ${f.reason}`).join('; ')}`);
  }
  lines.push('', `verdict: ${r.verdict.toUpperCase()} — ${r.why}`);
  return lines.join('\n');
}

export function formatRoutingHistory(history: readonly RoutingChange[]): string {
  if (!history.length) return 'No routing changes recorded.';
  return table(
    ['#', 'WHEN', 'WHO', 'CHANGE', 'DEFAULT LANE', 'WHY'],
    history.map((c) => [String(c.id), c.at, c.who, c.kind, `${c.previous.defaultLane} → ${c.next.defaultLane}`, c.why]),
  );
}

/**
 * How ready tasks are ordered. A task's score at time `now` is
 *
 *   priority (0–100)
 *   + URGENT_BONUS while its urgent flag has not expired
 *   + UNBLOCK_WEIGHT × the tasks waiting on it (at most UNBLOCK_CAP of them)
 *   − COST_WEIGHT × its lane's average cost per completed run in USD (at most COST_CAP)
 *   + agingPerMinute × minutes it has been ready (aging)
 *
 * Aging is linear in time for every task alike, so ordering by
 * `base − rate × readySince` gives the same order at every `now`: a heap
 * keyed once stays valid. Only the urgent bonus changes with time; it only
 * ever goes away, so an expired entry is re-keyed when it reaches the top.
 */
export const URGENT_BONUS = 1_000;
export const UNBLOCK_WEIGHT = 2;
export const UNBLOCK_CAP = 25;
export const COST_WEIGHT = 10;
export const COST_CAP = 50;

export interface PriorityInputs {
  priority: number;
  /** Epoch ms at which the urgent flag expires; absent: not urgent. */
  urgentUntil?: number;
  /** How many tasks depend on this one directly. */
  unblocks: number;
  estCostUsd: number;
  /** Epoch ms since which the task has been ready. */
  readySince: number;
}

/** The points a lane's estimated cost per run takes off the scores of its tasks. */
export function costPenalty(estCostUsd: number): number {
  return Math.min(COST_WEIGHT * estCostUsd, COST_CAP);
}

export function baseScore(t: PriorityInputs, now: number): number {
  const urgent = t.urgentUntil !== undefined && t.urgentUntil > now ? URGENT_BONUS : 0;
  return t.priority + urgent + UNBLOCK_WEIGHT * Math.min(t.unblocks, UNBLOCK_CAP) - costPenalty(t.estCostUsd);
}

/** The time-invariant heap key (larger comes out first). */
export function orderKey(t: PriorityInputs, now: number, agingPerMinute: number): number {
  return baseScore(t, now) - (agingPerMinute / 60_000) * t.readySince;
}

export function scoreAt(t: PriorityInputs, now: number, agingPerMinute: number): number {
  return baseScore(t, now) + (agingPerMinute / 60_000) * (now - t.readySince);
}

/** One line: why this score. */
export function explainScore(t: PriorityInputs, now: number, agingPerMinute: number): string {
  const minutes = Math.max(0, now - t.readySince) / 60_000;
  const parts = [`priority ${t.priority}`];
  if (t.urgentUntil !== undefined && t.urgentUntil > now)
    parts.push(`urgent +${URGENT_BONUS} until ${new Date(t.urgentUntil).toISOString()}`);
  parts.push(`waited ${minutes.toFixed(1)} min +${(agingPerMinute * minutes).toFixed(1)}`);
  if (t.unblocks) parts.push(`unblocks ${t.unblocks} +${UNBLOCK_WEIGHT * Math.min(t.unblocks, UNBLOCK_CAP)}`);
  if (t.estCostUsd) parts.push(`est. cost $${t.estCostUsd.toFixed(2)} −${costPenalty(t.estCostUsd).toFixed(1)}`);
  return `score ${scoreAt(t, now, agingPerMinute).toFixed(1)} (${parts.join(', ')})`;
}

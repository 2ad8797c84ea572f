import type { ProjectState } from '../store/projectState';

/** How many of a lane's latest SUCCEEDED runs its cost estimate averages. */
export const COST_SAMPLE = 20;

/** Each lane's average cost per SUCCEEDED run over its latest runs: the scheduler's cost estimate. */
export function laneCosts(state: ProjectState): Record<string, number> {
  const samples = new Map<string, number[]>();
  for (const run of state.runs) {
    if (run.state !== 'SUCCEEDED') continue;
    const list = samples.get(run.lane) ?? [];
    list.push(run.usage?.costUsd ?? 0);
    if (list.length > COST_SAMPLE) list.shift();
    samples.set(run.lane, list);
  }
  const out: Record<string, number> = {};
  for (const [lane, list] of samples) out[lane] = list.reduce((a, b) => a + b, 0) / list.length;
  return out;
}

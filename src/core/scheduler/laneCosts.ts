import type { ProjectState } from '../store/projectState';

/** How many of a lane's latest SUCCEEDED runs its cost estimate averages. */
export const COST_SAMPLE = 20;

/** Each lane's average cost per SUCCEEDED run over its latest runs: the scheduler's cost estimate. */
export function laneCosts(state: ProjectState): Record<string, number> {
  // Newest first, so a lane's sample is complete after its latest runs (the rest are only counted past).
  const samples = new Map<string, number[]>();
  for (let i = state.runs.length - 1; i >= 0; i--) {
    const run = state.runs[i]!;
    if (run.state !== 'SUCCEEDED') continue;
    const list = samples.get(run.lane);
    if (!list) samples.set(run.lane, [run.usage?.costUsd ?? 0]);
    else if (list.length < COST_SAMPLE) list.push(run.usage?.costUsd ?? 0);
  }
  const out: Record<string, number> = {};
  // Summed oldest first, as the sample was taken before.
  for (const [lane, list] of samples) out[lane] = list.reverse().reduce((a, b) => a + b, 0) / list.length;
  return out;
}

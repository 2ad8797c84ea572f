import type { Run } from '../model/run';
import type { ProjectState } from '../store/projectState';
import { sharedPrefixOf } from '../store/sharedPrefix';
import { type HistorySamples, workingOnlyInfo } from '../store/workingOnly';

/** How many of a lane's latest SUCCEEDED runs its cost estimate averages. */
export const COST_SAMPLE = 20;

/** Each lane's costs of its latest SUCCEEDED runs, newest first (at most COST_SAMPLE), in the order lanes are met. */
type Samples = Map<string, number[]>;

/** The samples of a shared history array's first `length` runs: computed once per history length, not per call. */
const sharedSamples = new WeakMap<readonly Run[], { length: number; samples: Samples }>();

/**
 * Each lane's average cost per SUCCEEDED run over its latest runs: the scheduler's cost estimate. A state of the
 * working set only (see `workingOnlyInfo`) carries the history's samples; they follow its own runs as the history's
 * runs would in the whole state.
 */
export function laneCosts(state: ProjectState): Record<string, number> {
  // Newest first, so a lane's sample is complete after its latest runs (the rest are only counted past).
  const shared = sharedPrefixOf(state.runs);
  const samples: Samples = new Map();
  sample(state.runs, shared?.length ?? 0, state.runs.length, samples);
  // The history's runs come first in the list: their newest samples fill what the later runs left short.
  const history = workingOnlyInfo(state)?.samples;
  if (history) fill(samples, Object.entries(history));
  else if (shared?.length) fill(samples, samplesOf(shared.of, shared.length));
  const out: Record<string, number> = {};
  // Summed oldest first, as the sample was taken before.
  for (const [lane, list] of samples) out[lane] = list.reverse().reduce((a, b) => a + b, 0) / list.length;
  return out;
}

/** Appends older samples to `samples`, as far as each lane's sample has room. */
function fill(samples: Samples, older: Iterable<[string, readonly number[]]>): void {
  for (const [lane, costs] of older) {
    const list = samples.get(lane);
    if (!list) samples.set(lane, costs.slice(0, COST_SAMPLE));
    else for (const cost of costs.slice(0, COST_SAMPLE - list.length)) list.push(cost);
  }
}

/** The samples of a history's runs (oldest first, as in a composed state), to store beside a working set. */
export function historySamples(runs: readonly Run[]): HistorySamples {
  return Object.fromEntries(samplesOf(runs, runs.length));
}

/**
 * `samples` after `appended` runs (oldest first) joined the end of the history: theirs are the newest, the older
 * samples fill what they leave short.
 */
export function appendSamples(samples: HistorySamples, appended: readonly Run[]): HistorySamples {
  const next: Samples = new Map();
  sample(appended, 0, appended.length, next);
  if (!next.size) return samples;
  fill(next, Object.entries(samples));
  return Object.fromEntries(next);
}

/** The samples of `runs[0..length)`: a shared array only grows, so only runs appended since the last look are read. */
function samplesOf(runs: readonly Run[], length: number): Samples {
  const known = sharedSamples.get(runs);
  if (known?.length === length) return known.samples;
  const from = known && known.length < length ? known.length : 0;
  const samples: Samples = new Map();
  sample(runs, from, length, samples);
  // The earlier runs' samples are older: they follow, as far as each lane's sample has room.
  if (from)
    for (const [lane, older] of known!.samples) {
      const list = samples.get(lane);
      if (!list) samples.set(lane, older);
      else for (const cost of older.slice(0, COST_SAMPLE - list.length)) list.push(cost);
    }
  sharedSamples.set(runs, { length, samples });
  return samples;
}

/** Adds the samples of `runs[from..to)`, newest first, to `samples`. */
function sample(runs: readonly Run[], from: number, to: number, samples: Samples): void {
  for (let i = to - 1; i >= from; i--) {
    const run = runs[i]!;
    if (run.state !== 'SUCCEEDED') continue;
    const list = samples.get(run.lane);
    if (!list) samples.set(run.lane, [run.usage?.costUsd ?? 0]);
    else if (list.length < COST_SAMPLE) list.push(run.usage?.costUsd ?? 0);
  }
}

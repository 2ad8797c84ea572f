import type { ProjectState } from './projectState';

/**
 * Each lane's costs of the history's latest SUCCEEDED runs, newest first (at most COST_SAMPLE a lane): what the lane
 * cost estimate takes from the history when a state holds the working set only (see `laneCosts`).
 */
export type HistorySamples = Readonly<Record<string, readonly number[]>>;

/** What a working-set-only state says about the history it leaves out. */
export interface WorkingOnlyInfo {
  samples: HistorySamples;
}

/** Each marked state with the lists it was marked with: a state whose lists were replaced holds something else. */
const states = new WeakMap<object, { info: WorkingOnlyInfo; tasks: readonly unknown[]; runs: readonly unknown[] }>();
const lists = new WeakSet<readonly unknown[]>();

/**
 * Thrown by a change run on a working-set-only draft (see `StateStore.updateWorking`) that needs an entry the working
 * set does not hold: the store runs the change again on the whole state.
 */
export class HistoryNeeded extends Error {
  constructor(what: string) {
    super(`${what} is not in the working set`);
    this.name = 'HistoryNeeded';
  }
}

/**
 * Marks `state` as holding the working set only (unfinished tasks, the newest finished ones, their runs). `draft`: a
 * change's draft, whose lists make a lookup that misses throw HistoryNeeded (see `lastWithId`).
 */
export function markWorkingOnly(state: ProjectState, info: WorkingOnlyInfo, draft: boolean): void {
  states.set(state, { info, tasks: state.tasks, runs: state.runs });
  if (draft) {
    lists.add(state.tasks);
    lists.add(state.runs);
  }
}

/**
 * What a working-set-only state says of the history; undefined for a whole state, and for a marked one whose task or
 * run list was replaced since (e.g. by a page of finished tasks: not the working set any more).
 */
export function workingOnlyInfo(state: ProjectState): WorkingOnlyInfo | undefined {
  const marked = states.get(state);
  return marked && marked.tasks === state.tasks && marked.runs === state.runs ? marked.info : undefined;
}

/** Whether `list` is a working-set-only draft's task or run list (a miss there may be in the history). */
export function isWorkingOnlyList(list: readonly unknown[]): boolean {
  return lists.has(list);
}

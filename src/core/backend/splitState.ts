import { isDeepStrictEqual } from 'node:util';
import type { Run } from '../model/run';
import type { Task } from '../model/task';
import type { ProjectState } from '../store/projectState';
import type { HistoryRecord } from '../store/taskHistory';
import type { HistoryIndex, HistoryView } from './historyIndex';
import { FINISHED_TASK_STATES } from '../model/taskStates';

/** How many finished tasks stay in the working set (the newest), so a retry or a look at the last ones is cheap. */
export const FINISHED_KEPT = 20;

/** A task is finished when its state is and none of its runs is still running (a canceled task's run may be). */
export function isFinished(task: Task, runs: readonly Run[]): boolean {
  return FINISHED_TASK_STATES.has(task.state) && runs.every((r) => r.state !== 'RUNNING');
}

export interface Split {
  working: ProjectState;
  /** What to append to the history: finished tasks leaving the working set (or changed there), and removals. */
  records: HistoryRecord[];
}

/**
 * Splits a state after a change into the working set to store in `state.json` and the history records to append.
 * History entries still the frozen objects of `index` are untouched by identity, without a look inside; `thawed`
 * (the change ran on copies) compares the copies of history entries by value instead.
 */
export function splitState(
  draft: ProjectState,
  index: HistoryIndex,
  view: HistoryView,
  thawed: boolean,
  kept = FINISHED_KEPT,
): Split {
  const { tasks, runs, ...head } = draft;
  const originalRuns = thawed ? new Map(view.runs.map((r) => [r.id, r])) : undefined;
  const sameTask = (t: Task): boolean =>
    index.taskObjects.has(t) || (thawed && view.ids.has(t.id) && isDeepStrictEqual(t, index.records.get(t.id)?.task));
  const sameRun = (r: Run): boolean =>
    index.runObjects.has(r) || (originalRuns !== undefined && isDeepStrictEqual(r, originalRuns.get(r.id)));

  // The usual change leaves the history entries where `compose` put them, first and in order: one pass of pointer
  // compares tells, without a lookup per entry.
  const intactTasks = !thawed && startsWith(tasks, view.tasks);
  const history = intactTasks ? view.ids : new Set<string>();
  const candidates: Task[] = intactTasks ? tasks.slice(view.tasks.length) : [];
  if (!intactTasks)
    for (const task of tasks) {
      if (view.ids.has(task.id) && sameTask(task)) (history as Set<string>).add(task.id);
      else candidates.push(task);
    }
  const candidateIds = new Set(candidates.map((t) => t.id));
  // History tasks whose runs changed: their record is written again.
  const touched = new Set<string>();
  const intactRuns = !thawed && startsWith(runs, view.runs);
  let historyRuns = intactRuns ? view.runs.length : 0;
  for (const run of intactRuns ? runs.slice(view.runs.length) : runs) {
    if (!intactRuns && view.runIds.has(run.id) && sameRun(run)) historyRuns++;
    else if (history.has(run.taskId)) touched.add(run.taskId);
  }
  if (historyRuns < view.runs.length) {
    const present = new Set(runs.map((r) => r.id));
    for (const run of view.runs) if (!present.has(run.id) && history.has(run.taskId)) touched.add(run.taskId);
  }
  const records: HistoryRecord[] = [];
  if (history.size < view.ids.size)
    for (const id of view.ids) if (!history.has(id) && !candidateIds.has(id)) records.push({ removed: id });
  const moving = touched.size ? [...tasks.filter((t) => touched.has(t.id)), ...candidates] : candidates;
  const movingIds = new Set(moving.map((t) => t.id));
  const runsOf = new Map<string, Run[]>();
  for (const run of intactRuns && !touched.size ? runs.slice(view.runs.length) : runs) {
    if (!movingIds.has(run.taskId)) continue;
    const list = runsOf.get(run.taskId);
    if (list) list.push(run);
    else runsOf.set(run.taskId, [run]);
  }
  const finished = moving.filter((t) => isFinished(t, runsOf.get(t.id) ?? []));
  const leaving = new Set(finished.slice(0, Math.max(0, finished.length - kept)).map((t) => t.id));
  for (const task of moving) if (leaving.has(task.id)) records.push({ task, runs: runsOf.get(task.id) ?? [] });
  const workingTasks = (intactTasks && !touched.size ? candidates : tasks).filter(
    (t) => movingIds.has(t.id) && !leaving.has(t.id),
  );
  const workingIds = new Set(workingTasks.map((t) => t.id));
  // A run whose task is gone altogether stays where everyone sees it.
  const workingRuns = (intactRuns && !touched.size ? runs.slice(view.runs.length) : runs).filter(
    (r) => workingIds.has(r.taskId) || (!history.has(r.taskId) && !leaving.has(r.taskId) && !touched.has(r.taskId)),
  );
  return { working: { ...head, tasks: workingTasks, runs: workingRuns }, records };
}

/** Whether `list` begins with exactly the objects of `prefix`, in order. */
function startsWith<T>(list: readonly T[], prefix: readonly T[]): boolean {
  if (list.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
  return true;
}

import { Run } from '../../src/core/model/run';
import { Task } from '../../src/core/model/task';
import type { TaskState } from '../../src/core/model/taskStates';
import type { ProjectState } from '../../src/core/store/projectState';

/** A task numbered `n` in `state`, with one run in the matching run state (none while READY or DRAFT). */
export function taskWithRun(n: number, state: TaskState, base = 'a'.repeat(40)): { task: Task; runs: Run[] } {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  const id = `t${n}`;
  const task = Task.parse({
    id,
    spec: { title: `task ${n}`, spec: `change file ${n}` },
    state,
    baseCommit: base,
    createdAt: at,
    updatedAt: at,
    attempts: state === 'READY' || state === 'DRAFT' ? 0 : 1,
    generation: 0,
    ...(state === 'READY' || state === 'DRAFT' ? {} : { lastRunId: `${id}.1` }),
  });
  if (state === 'READY' || state === 'DRAFT') return { task, runs: [] };
  const runState =
    state === 'DONE' ? 'SUCCEEDED' : state === 'FAILED' ? 'FAILED' : state === 'CANCELED' ? 'CANCELED' : 'RUNNING';
  const run = Run.parse({
    id: `${id}.1`,
    taskId: id,
    lane: 'command',
    attempt: 1,
    generation: 0,
    state: runState,
    branch: `switchyard/${id}.1`,
    worktree: `/tmp/wt/${id}.1`,
    baseCommit: base,
    startedAt: at,
    ...(runState === 'RUNNING' ? {} : { endedAt: at, durationMs: 1000 }),
  });
  return { task, runs: [run] };
}

/** Adds tasks `from`..`to` (inclusive) in `state` to a draft, as one update would, based on commit `base`. */
export function addTasks(draft: ProjectState, from: number, to: number, state: TaskState, base?: string): void {
  for (let n = from; n <= to; n++) {
    const { task, runs } = taskWithRun(n, state, base);
    draft.tasks.push(task);
    draft.runs.push(...runs);
  }
  draft.nextTaskNumber = Math.max(draft.nextTaskNumber, to + 1);
}

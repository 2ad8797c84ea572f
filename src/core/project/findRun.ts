import { SwitchyardError } from '../errors';
import type { StateStore } from '../backend/stateStore';
import type { Run } from '../model/run';
import type { Task } from '../model/task';

/** The stored run with this id; an unknown id is an `unknown-run` error that lists the runs there are. */
export async function findRun(store: StateStore, runId: string): Promise<Run> {
  const state = await store.read();
  const run = state.runs.find((r) => r.id === runId);
  if (run) return run;
  throw new SwitchyardError(
    'unknown-run',
    `unknown run "${runId}"${state.runs.length ? `; runs: ${state.runs.map((r) => r.id).join(', ')}` : ''}`,
  );
}

/** A task id (its last run, or the run it integrated) or a run id → the task and the run whose change is taken. */
export async function changeOf(store: StateStore, id: string): Promise<{ task: Task; run: Run }> {
  const state = await store.read();
  const byTask = state.tasks.find((t) => t.id === id);
  const runId = byTask ? (byTask.integration?.runId ?? byTask.lastRunId) : id;
  if (byTask && !runId) throw new SwitchyardError('invalid-input', `task ${id} has no run yet (${byTask.state})`);
  const run = await findRun(store, runId!);
  const task = byTask ?? state.tasks.find((t) => t.id === run.taskId);
  if (!task) throw new SwitchyardError('unknown-run', `run ${run.id} belongs to no task`);
  return { task, run };
}

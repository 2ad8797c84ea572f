import { createHash } from 'node:crypto';
import type { Run } from '../model/run';
import type { Task } from '../model/task';

/** A hash of what a lane is asked to do: title, spec, files and acceptance command. */
export function inputHash(task: Task): string {
  const { title, spec, files, acceptance } = task.spec;
  return createHash('sha256')
    .update(JSON.stringify([title, spec, files, acceptance ?? null]))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Why a run's result no longer counts, if it does not: the task was canceled
 * (its generation moved on) or its input changed since the run started.
 */
export function staleBecause(task: Task, run: Pick<Run, 'generation' | 'inputHash'>): string | undefined {
  if (task.generation !== run.generation || task.state === 'CANCELED')
    return `task ${task.id} was canceled while the run was under way`;
  if (run.inputHash && run.inputHash !== inputHash(task))
    return `task ${task.id}'s input changed while the run was under way`;
  return undefined;
}

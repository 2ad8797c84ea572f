import type { Run } from './run';
import type { Task } from './task';
import { STAGES } from './stages';

/** A READY task that cannot start because a task in progress targets one of its files. */
export interface FileWait {
  taskId: string;
  file: string;
  /** The task in progress that holds the file. */
  heldBy: string;
  /** Its run's owner is this process (the same window or terminal), as the run record says. */
  here: boolean;
}

const ACTIVE = new Set<string>(STAGES);

/**
 * Which READY tasks wait for a file held by a task in progress, and by which task, computed from the records (the
 * same rule as the scheduler's: two tasks that declare the same file never run at once). `owner` is this process's
 * owner id: a holder whose current run it owns is `here`. `only`: just these waiting tasks.
 */
export function fileWaits(
  state: { tasks: readonly Task[]; runs: readonly Run[] },
  owner: string,
  only?: ReadonlySet<string>,
): FileWait[] {
  const holders = new Map<string, Task>();
  for (const task of state.tasks) {
    if (!ACTIVE.has(task.state)) continue;
    for (const file of task.spec.files) if (!holders.has(file)) holders.set(file, task);
  }
  if (!holders.size) return [];
  const waits: FileWait[] = [];
  for (const task of state.tasks) {
    if (task.state !== 'READY' || (only && !only.has(task.id))) continue;
    const file = task.spec.files.find((f) => holders.has(f) && holders.get(f)!.id !== task.id);
    if (file === undefined) continue;
    const holder = holders.get(file)!;
    const run = holder.lastRunId ? state.runs.find((r) => r.id === holder.lastRunId) : undefined;
    waits.push({ taskId: task.id, file, heldBy: holder.id, here: run?.owner === owner });
  }
  return waits;
}

/**
 * "t2 waits for src/a.ts, held by t1 (running in this window); it starts when t1 ends". `herePlace` names this
 * process for a person ("in this window", "in this terminal"). A drain waits for a holder of its own process; one
 * elsewhere is not watched, so the line says to run the queue again.
 */
export function fileWaitLine(wait: FileWait, herePlace: string): string {
  const what = `${wait.taskId} waits for ${wait.file}, held by ${wait.heldBy}`;
  return wait.here
    ? `${what} (running ${herePlace}); it starts when ${wait.heldBy} ends`
    : `${what} (in progress in another Switchyard process: another window, a terminal or a worker); run the queue again once ${wait.heldBy} ends`;
}

import type { Task } from '../model/task';
import { isStage } from '../model/stages';
import { orderKey } from '../scheduler/priorityScore';
import type { ProjectState } from '../store/projectState';
import type { ReadyWait } from './panelProtocol';

export interface ReadyFacts {
  /** The time-invariant order key without the lane's cost penalty (larger first). */
  key: number;
  wait?: ReadyWait;
  unblocks: number;
}

/**
 * The scheduler's view of READY tasks, computed from the stored state the way
 * `SchedulerMirror` feeds its `Scheduler`: the priority score's
 * time-invariant key (priority, urgent bonus, tasks unblocked, aging since
 * the task became ready, priorityScore's orderKey without a cost) and why a task is not in the ready set (unmet
 * dependencies, retry backoff, a file held by a task in progress). The lane's
 * cost penalty is kept apart (the panel header's `lanePenalty`) so that a lane's cost
 * estimate moving does not change every READY task's row.
 */
export function readyFacts(state: ProjectState, now: number): Map<string, ReadyFacts> {
  const byId = new Map(state.tasks.map((t) => [t.id, t]));
  const dependents = new Map<string, number>();
  for (const t of state.tasks) for (const d of t.spec.dependsOn) dependents.set(d, (dependents.get(d) ?? 0) + 1);
  const held = heldFiles(state.tasks);
  const aging = state.settings.agingPerMinute;
  const out = new Map<string, ReadyFacts>();
  for (const task of state.tasks) {
    if (task.state !== 'READY') continue;
    const unblocks = dependents.get(task.id) ?? 0;
    const readySince = readySinceOf(task, byId);
    const urgentUntil = task.spec.urgent ? Date.parse(task.spec.urgent.expiresAt) : undefined;
    const inputs = { priority: task.spec.priority, unblocks, estCostUsd: 0, readySince };
    const key = orderKey(urgentUntil === undefined ? inputs : { ...inputs, urgentUntil }, now, aging);
    const wait = waitOf(task, byId, held, now);
    out.set(task.id, { key, unblocks, ...(wait ? { wait } : {}) });
  }
  return out;
}

/** The task number (`t12` → 12), the scheduler's tie-break among equal scores. */
export function taskNumber(id: string): number {
  return Number(id.replace(/^\D+/, '')) || 0;
}

function readySinceOf(task: Task, byId: ReadonlyMap<string, Task>): number {
  let since = Date.parse(task.updatedAt);
  for (const d of task.spec.dependsOn) {
    const dep = byId.get(d);
    if (dep?.state === 'DONE') since = Math.max(since, Date.parse(dep.updatedAt));
  }
  return since;
}

function waitOf(
  task: Task,
  byId: ReadonlyMap<string, Task>,
  held: ReadonlyMap<string, string>,
  now: number,
): ReadyWait | undefined {
  const unmet = task.spec.dependsOn.filter((d) => byId.get(d)?.state !== 'DONE');
  if (unmet.length) return { kind: 'deps', on: unmet };
  if (task.retryAt && Date.parse(task.retryAt) > now) return { kind: 'backoff', until: task.retryAt };
  for (const file of task.spec.files) {
    const holder = held.get(file);
    if (holder !== undefined && holder !== task.id) return { kind: 'file', file, heldBy: holder };
  }
  return undefined;
}

/** Files targeted by tasks in progress, and the (first) task holding each. */
function heldFiles(tasks: readonly Task[]): Map<string, string> {
  const held = new Map<string, string>();
  for (const t of tasks) {
    if (!isStage(t.state)) continue;
    for (const f of t.spec.files) if (!held.has(f)) held.set(f, t.id);
  }
  return held;
}

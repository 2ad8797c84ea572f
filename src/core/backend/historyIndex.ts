import type { Run } from '../model/run';
import type { Task } from '../model/task';
import { EMPTY_HISTORY, type FinishedRecord, type HistoryMark, type HistoryRecord } from '../store/taskHistory';

/** What the history shows next to a working set: its tasks and runs, minus the ids the working set holds. */
export interface HistoryView {
  tasks: readonly Task[];
  runs: readonly Run[];
  ids: ReadonlySet<string>;
  runIds: ReadonlySet<string>;
}

/**
 * The history in memory, read once and then only what was appended: the latest record per task id, deeply frozen
 * (shared by every read without a copy; a change that writes to one fails loudly instead of being lost).
 */
export class HistoryIndex {
  mark: HistoryMark = EMPTY_HISTORY;
  readonly records = new Map<string, FinishedRecord>();
  /** The frozen objects themselves: an update tells an untouched history entry by identity. */
  readonly taskObjects = new Set<Task>();
  readonly runObjects = new Set<Run>();
  private version = 0;
  private cached: { version: number; shadowed: ReadonlySet<string>; view: HistoryView } | undefined;

  apply(records: readonly HistoryRecord[], mark: HistoryMark): void {
    // New ids extend the cached view in place (the drafts composed from it hold copies of its arrays).
    let extend = this.cached?.version === this.version ? this.cached.view : undefined;
    for (const record of records) {
      const id = 'removed' in record ? record.removed : record.task.id;
      const old = this.records.get(id);
      if (old || 'removed' in record) extend = undefined;
      if (old) {
        this.records.delete(id);
        this.taskObjects.delete(old.task);
        for (const run of old.runs) this.runObjects.delete(run);
      }
      if ('removed' in record) continue;
      const frozen = deepFreeze(record);
      this.records.set(id, frozen);
      this.taskObjects.add(frozen.task);
      for (const run of frozen.runs) this.runObjects.add(run);
      if (extend && !this.cached!.shadowed.has(id)) {
        (extend.tasks as Task[]).push(frozen.task);
        (extend.ids as Set<string>).add(id);
        for (const run of frozen.runs) {
          (extend.runs as Run[]).push(run);
          (extend.runIds as Set<string>).add(run.id);
        }
      }
    }
    this.mark = mark;
    if (records.length) this.version++;
    if (extend && records.length) this.cached!.version = this.version;
  }

  clear(): void {
    this.records.clear();
    this.taskObjects.clear();
    this.runObjects.clear();
    this.mark = EMPTY_HISTORY;
    this.version++;
  }

  /** The records not shadowed by `working` (a retried task is back in the working set; its old record stays). */
  view(working: ReadonlySet<string>): HistoryView {
    const shadowed = new Set<string>();
    for (const id of working) if (this.records.has(id)) shadowed.add(id);
    const cached = this.cached;
    if (cached && cached.version === this.version && sameSet(cached.shadowed, shadowed)) return cached.view;
    const tasks: Task[] = [];
    const runs: Run[] = [];
    const ids = new Set<string>();
    const runIds = new Set<string>();
    for (const [id, record] of this.records) {
      if (shadowed.has(id)) continue;
      tasks.push(record.task);
      ids.add(id);
      for (const run of record.runs) {
        runs.push(run);
        runIds.add(run.id);
      }
    }
    const view = { tasks, runs, ids, runIds };
    this.cached = { version: this.version, shadowed, view };
    return view;
  }
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const id of a) if (!b.has(id)) return false;
  return true;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

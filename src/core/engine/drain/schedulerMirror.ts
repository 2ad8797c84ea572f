import { laneCosts } from '../../scheduler/laneCosts';
import type { Task } from '../../model/task';
import type { TaskState } from '../../model/taskStates';
import { breakerAllows } from '../../scheduler/circuitBreaker';
import { Scheduler, type PickResult, type SchedTask } from '../../scheduler/scheduler';
import type { BreakerState } from '../../model/breakerState';
import type { WipLimits } from '../../store/orchestratorSettings';
import type { ProjectState } from '../../store/projectState';
import { sharedPrefixOf } from '../../store/sharedPrefix';
import { workingOnlyInfo } from '../../store/workingOnly';
import { FINISHED_TASK_STATES } from '../../model/taskStates';

interface Seen {
  state: TaskState;
  key: string;
  retryAt?: number;
  /** The object compared last: a store may hand out the same (frozen) object for a task that did not change. */
  task?: Task;
}

/**
 * Thrown by `sync` of a working-set-only state that leaves out what the mirror must know: a task it holds as unfinished
 * that has left the working set, or a dependency it never saw. `prepare` looks them up; then sync again.
 */
export class MirrorBehind extends Error {
  constructor(readonly ids: readonly string[]) {
    super(`the scheduler needs tasks outside the working set: ${ids.join(', ')}`);
    this.name = 'MirrorBehind';
  }
}

/**
 * One drain's scheduler, kept in step with the store: at each claim (under
 * the store lock) the state's revision is compared with the one last seen;
 * when it moved, tasks are compared field by field and only the ones that
 * changed are fed to the scheduler as events. The ready set, the dependency
 * counts and the heaps are never rebuilt from scratch unless the WIP limits
 * or the aging rate change. It syncs from the whole state, or from the working
 * set alone (`workingOnlyInfo`): then the finished tasks it needs besides (a
 * dependency, a task that finished and left) are looked up by `prepare`.
 */
export class SchedulerMirror {
  private scheduler!: Scheduler;
  private readonly seen = new Map<string, Seen>();
  private revision = -1;
  private frozenPrefix: readonly Task[] = [];
  /** The history array the last sync's tasks began with, and how many of its leading tasks the mirror holds. */
  private history: { of: readonly Task[]; checked: number } = NO_HISTORY;
  private settingsKey = '';
  private costs = new Map<string, number>();
  private breakers: Record<string, BreakerState> = {};
  private breakerSettings!: ProjectState['settings']['breaker'];
  /** Breakers the last pick moved from open to half-open (the claim stores them). */
  readonly breakerChanges = new Map<string, BreakerState>();
  /** Finished tasks looked up outside the working set (see `prepare`), until a sync takes them in. */
  private readonly outside = new Map<string, Task>();
  /** Ids looked up and found nowhere (a dependency on no task): not asked for again. */
  private readonly absent = new Set<string>();

  constructor(private readonly options: { concurrency?: number; only?: ReadonlySet<string> } = {}) {}

  get current(): Scheduler {
    return this.scheduler;
  }

  /**
   * The tasks a sync of `state` (of the working set alone) needs from outside it: tasks the mirror holds as unfinished
   * that left it, and dependencies never seen. None for a whole state.
   */
  gaps(state: ProjectState): string[] {
    if (!workingOnlyInfo(state)) return [];
    const here = new Set(state.tasks.map((t) => t.id));
    const known = (id: string): boolean => here.has(id) || this.outside.has(id) || this.absent.has(id);
    const gaps = new Set<string>();
    for (const [id, seen] of this.seen) if (!FINISHED_TASK_STATES.has(seen.state) && !known(id)) gaps.add(id);
    for (const task of state.tasks)
      for (const dep of task.spec.dependsOn) if (!known(dep) && !this.seen.has(dep)) gaps.add(dep);
    return [...gaps];
  }

  /** Looks up what a sync of `state` needs from outside it (see `gaps`), so the sync that follows has it. */
  async prepare(
    state: ProjectState,
    store: { findFinished(ids: Iterable<string>): Promise<Map<string, Task>> },
  ): Promise<void> {
    const gaps = this.gaps(state);
    if (!gaps.length) return;
    const found = await store.findFinished(gaps);
    for (const id of gaps) {
      const task = found.get(id);
      if (task) this.outside.set(id, task);
      else this.absent.add(id);
    }
    // Taken in by the next sync, whatever the revision.
    this.revision = -1;
  }

  /**
   * Brings the scheduler up to `state`; returns how many tasks changed (-1: rebuilt). A state of the working set alone
   * that lacks what the mirror needs throws MirrorBehind, before anything changes.
   */
  sync(state: ProjectState, now: number): number {
    const gaps = this.gaps(state);
    if (gaps.length) throw new MirrorBehind(gaps);
    const working = workingOnlyInfo(state) !== undefined;
    const limits: WipLimits = {
      ...state.settings.wip,
      ...(this.options.concurrency ? { RUNNING: this.options.concurrency } : {}),
    };
    const settingsKey = JSON.stringify([limits, state.settings.agingPerMinute, state.settings.defaultLane]);
    this.breakers = state.breakers;
    this.breakerSettings = state.settings.breaker;
    if (settingsKey !== this.settingsKey) {
      this.settingsKey = settingsKey;
      this.rebuild(state, limits, now);
      return -1;
    }
    if (state.revision === this.revision) return 0;
    this.costs = new Map(Object.entries(laneCosts(state)));
    if (working) return this.syncWorking(state, now);
    let changed = 0;
    // The history's shared entries compared already: skipped without a look (a shared array only grows), or, when the
    // store shares a new array, by pointer compares with the old one (whose entries stay as they were).
    const shared = sharedPrefixOf(state.tasks);
    const held = this.history;
    let start = 0;
    if (shared && shared.of === held.of) start = Math.min(held.checked, shared.length);
    else while (start < held.checked && state.tasks[start] === held.of[start]) start++;
    // The frozen tasks the last sync began with, if they still lead: unchanged, skipped by pointer compares alone.
    const prefix = this.frozenPrefix;
    if (start === 0) while (start < prefix.length && state.tasks[start] === prefix[start]) start++;
    for (let i = start; i < state.tasks.length; i++) if (this.observe(state.tasks[i]!, state, now)) changed += 1;
    if (shared) {
      this.history = { of: shared.of, checked: heldUpTo(state.tasks, start, shared.length, this.seen) };
      this.frozenPrefix = [];
    } else {
      this.history = NO_HISTORY;
      this.frozenPrefix = leadingFrozen(state.tasks, start, this.seen);
    }
    this.revision = state.revision;
    return changed;
  }

  /** A sync from the working set alone: each of its tasks compared, then the finished ones looked up outside it. */
  private syncWorking(state: ProjectState, now: number): number {
    let changed = 0;
    const here = new Set<string>();
    for (const task of state.tasks) {
      here.add(task.id);
      if (this.observe(task, state, now)) changed += 1;
    }
    for (const [id, task] of this.outside) {
      if (!here.has(id) && this.observe(task, state, now)) changed += 1;
      this.outside.delete(id);
    }
    // A later sync of the whole state compares every task (the shortcuts below hold for whole states only).
    this.history = NO_HISTORY;
    this.frozenPrefix = [];
    this.revision = state.revision;
    return changed;
  }

  /** Feeds `task` to the scheduler if it is new or changed since the last look; whether it was. */
  private observe(task: Task, state: ProjectState, now: number): boolean {
    const seen = this.seen.get(task.id);
    if (seen?.task === task) return false;
    const at = Date.parse(task.updatedAt);
    if (!seen) {
      this.add(task, state);
      return true;
    }
    const key = this.keyOf(task, state);
    const retryAt = task.retryAt ? Date.parse(task.retryAt) : undefined;
    if (seen.state === task.state && seen.key === key && seen.retryAt === retryAt) {
      if (Object.isFrozen(task)) seen.task = task;
      return false;
    }
    if (seen.key !== key) this.scheduler.update(this.toSched(task, state), now);
    if (seen.retryAt !== retryAt) this.scheduler.setRetryAt(task.id, retryAt, now);
    if (seen.state !== task.state) this.scheduler.setState(task.id, task.state, at);
    this.seen.set(task.id, { state: task.state, key, retryAt, ...frozen(task) });
    return true;
  }

  /** The state the mirror holds for a task (working set or looked up outside it), if it holds one. */
  stateOf(id: string): TaskState | undefined {
    return this.seen.get(id)?.state;
  }

  /** After this process wrote `revision` with the picks applied in both places. */
  wrote(revision: number): void {
    this.revision = revision;
  }

  /** Forget the last revision: the next sync compares every task. */
  invalidate(): void {
    this.revision = -1;
  }

  /** When the next open breaker with ready tasks on its lane lets a probe through. */
  nextProbeAt(now: number): number | undefined {
    let next: number | undefined;
    for (const [lane, b] of Object.entries(this.breakers)) {
      if (b.state !== 'open' || !this.scheduler.hasReady(lane, now)) continue;
      const at = Date.parse(b.since) + this.breakerSettings.cooldownMs;
      next = next === undefined ? at : Math.min(next, at);
    }
    return next;
  }

  /** Picks tasks to start; the mirror records them as RUNNING (the claim writes the same to the store). */
  pick(now: number, max = Infinity): PickResult {
    this.breakerChanges.clear();
    const result = this.scheduler.pick(now, max);
    for (const p of result.picks) {
      const seen = this.seen.get(p.id);
      if (seen) {
        seen.state = 'RUNNING';
        // Held by identity (frozen: never in practice, a history task is finished): the next sync compares it again.
        if (seen.task) this.history = NO_HISTORY;
        delete seen.task;
      }
    }
    return result;
  }

  private rebuild(state: ProjectState, limits: WipLimits, now: number): void {
    this.scheduler = new Scheduler({
      limits,
      agingPerMinute: state.settings.agingPerMinute,
      costOf: (lane) => this.costs.get(lane) ?? 0,
      laneGate: (lane, inFlight, at) => {
        const verdict = breakerAllows(this.breakers[lane], inFlight, at, this.breakerSettings);
        if (!verdict.allow) return { allow: false, reason: verdict.reason };
        if (verdict.next) {
          this.breakers = { ...this.breakers, [lane]: verdict.next };
          this.breakerChanges.set(lane, verdict.next);
        }
        return { allow: true };
      },
    });
    this.seen.clear();
    this.frozenPrefix = [];
    this.history = NO_HISTORY;
    this.costs = new Map(Object.entries(laneCosts(state)));
    // A working set alone: the finished tasks looked up outside it join it (they are never in it).
    const here = new Set(state.tasks.map((t) => t.id));
    const tasks = [...[...this.outside.values()].filter((t) => !here.has(t.id)), ...state.tasks];
    this.outside.clear();
    this.scheduler.addMany(
      tasks.map((task) => ({
        task: this.toSched(task, state),
        state: task.state,
        at: Date.parse(task.updatedAt),
        retryAt: task.retryAt ? Date.parse(task.retryAt) : undefined,
      })),
      now,
    );
    for (const task of tasks)
      this.seen.set(task.id, {
        state: task.state,
        key: this.keyOf(task, state),
        retryAt: task.retryAt ? Date.parse(task.retryAt) : undefined,
        ...frozen(task),
      });
    const shared = sharedPrefixOf(state.tasks);
    if (shared) this.history = { of: shared.of, checked: heldUpTo(state.tasks, 0, shared.length, this.seen) };
    this.revision = state.revision;
  }

  private add(task: Task, state: ProjectState): void {
    const retryAt = task.retryAt ? Date.parse(task.retryAt) : undefined;
    this.scheduler.add(this.toSched(task, state), task.state, Date.parse(task.updatedAt), retryAt);
    this.seen.set(task.id, { state: task.state, key: this.keyOf(task, state), retryAt, ...frozen(task) });
  }

  private toSched(task: Task, state: ProjectState): SchedTask {
    return {
      id: task.id,
      deps: task.spec.dependsOn,
      priority: task.spec.priority,
      lane: task.spec.lane ?? state.settings.defaultLane,
      files: task.spec.files,
      ...(task.spec.urgent ? { urgentUntil: Date.parse(task.spec.urgent.expiresAt) } : {}),
      order: Number(task.id.replace(/^\D+/, '')) || 0,
      ...(this.options.only && !this.options.only.has(task.id) ? { hold: true } : {}),
    };
  }

  private keyOf(task: Task, state: ProjectState): string {
    return JSON.stringify([
      task.spec.priority,
      task.spec.lane ?? state.settings.defaultLane,
      task.spec.files,
      task.spec.urgent?.expiresAt ?? null,
    ]);
  }
}

/** A frozen task cannot change behind the mirror's back: remembered, the next sync skips it by identity. */
function frozen(task: Task): { task?: Task } {
  return Object.isFrozen(task) ? { task } : {};
}

const NO_HISTORY: { of: readonly Task[]; checked: number } = { of: [], checked: 0 };

/** How far the leading tasks (up to `end`) are held by identity; the first `known` are known to be. */
function heldUpTo(tasks: readonly Task[], known: number, end: number, seen: ReadonlyMap<string, Seen>): number {
  let at = known;
  while (at < end && seen.get(tasks[at]!.id)?.task === tasks[at]) at++;
  return at;
}

/** The leading tasks the mirror holds by identity (frozen, compared already); the first `known` are known to be. */
function leadingFrozen(tasks: readonly Task[], known: number, seen: ReadonlyMap<string, Seen>): readonly Task[] {
  let end = known;
  while (end < tasks.length && seen.get(tasks[end]!.id)?.task === tasks[end]) end++;
  return tasks.slice(0, end);
}

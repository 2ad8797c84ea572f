import { STAGES, isStage } from '../model/stages';
import type { TaskState } from '../model/taskStates';
import type { WipLimits } from '../store/orchestratorSettings';
import { DagIndex } from './dagIndex';
import { FileOwnership } from './fileOwnership';
import { explainScore, scoreAt, type PriorityInputs } from './priorityScore';
import { ReadySet } from './readySet';
import { StageCounts } from './stageLimits';
import type { SchedTask } from './schedTask';

export type { SchedTask } from './schedTask';

export interface SchedulerOptions {
  limits: WipLimits;
  agingPerMinute: number;
  /** Estimated cost of a run on `lane` in USD (the lane's recent average per completed run); default 0. */
  costOf?(lane: string): number;
  /** Whether a run may start on `lane` with `inFlight` of its runs going (the circuit breaker). */
  laneGate?(lane: string, inFlight: number, now: number): { allow: true } | { allow: false; reason: string };
}

export interface Pick {
  id: string;
  lane: string;
  score: number;
  /** What the score was made of (see `Scheduler.explain`) and when it was picked. */
  inputs: PriorityInputs;
  at: number;
  /** How long it was ready before it was picked. */
  waitedMs: number;
}

export interface PickResult {
  picks: Pick[];
  /** Why nothing (more) could start, when that is the case. */
  reason?: string;
  backpressure: boolean;
  /** Lanes whose ready tasks were passed over, and why (an open breaker). */
  skippedLanes: { lane: string; reason: string }[];
  /** Tasks set aside because a file they target is held by a task in progress. */
  parked: { id: string; file: string; heldBy: string }[];
}

const ACTIVE: ReadonlySet<TaskState> = new Set<TaskState>(STAGES);

/**
 * The ready set and dispatch order, maintained incrementally: a task enters
 * the ready set when it is READY, its dependencies are DONE, its retry
 * backoff has passed and no task in progress holds one of its files; it
 * leaves on the next state event. Per-lane heaps order the ready tasks (see
 * priorityScore). `pick` respects the stage WIP limits (no start while a
 * downstream stage is full) and the lanes' breakers, and moves what it picks
 * to RUNNING at once, so a pick is never handed out twice. Pure: no I/O;
 * time comes in as arguments.
 */
export class Scheduler {
  readonly dag = new DagIndex();
  readonly stages: StageCounts;
  private readonly ready: ReadySet;
  private readonly files = new FileOwnership();
  private readonly laneActive = new Map<string, number>();

  constructor(private readonly options: SchedulerOptions) {
    this.stages = new StageCounts(options.limits);
    this.ready = new ReadySet(this.dag, options.agingPerMinute, options.costOf);
  }

  get size(): number {
    return this.ready.nodes.size;
  }

  /** How many tasks are in the ready set now. */
  get readyCount(): number {
    return this.ready.size;
  }

  state(id: string): TaskState | undefined {
    return this.dag.get(id)?.state;
  }

  task(id: string): SchedTask | undefined {
    return this.ready.nodes.get(id)?.task;
  }

  inFlight(lane: string): number {
    return this.laneActive.get(lane) ?? 0;
  }

  /** Adds a task in `state`, entered at `at` (epoch ms). */
  add(task: SchedTask, state: TaskState, at: number, retryAt?: number): void {
    if (this.ready.nodes.has(task.id)) throw new Error(`task ${task.id} is already scheduled`);
    this.ready.nodes.set(task.id, { task, version: 0, queued: false, readySince: at, retryAt });
    const freed = this.dag.add(task.id, task.deps, state, at);
    this.moved(task.id, undefined, state, at);
    // A new dependent raises its dependencies' "unblocks" count: re-key those in the ready set.
    for (const dep of task.deps) this.ready.rekey(dep, at);
    this.ready.refresh(task.id, at);
    for (const id of freed) this.ready.refresh(id, at);
  }

  /**
   * Adds many tasks at once (a drain's first look at the store): each is put in the ready set once, after all are
   * known.
   */
  addMany(entries: readonly { task: SchedTask; state: TaskState; at: number; retryAt?: number }[], now: number): void {
    for (const { task, state, at, retryAt } of entries) {
      if (this.ready.nodes.has(task.id)) throw new Error(`task ${task.id} is already scheduled`);
      this.ready.nodes.set(task.id, { task, version: 0, queued: false, readySince: at, retryAt });
      this.dag.add(task.id, task.deps, state, at);
      this.moved(task.id, undefined, state, at);
    }
    for (const { task } of entries) this.ready.refresh(task.id, now);
  }

  /** A task's state changed (at epoch ms `at`). */
  setState(id: string, to: TaskState, at: number): void {
    const from = this.dag.get(id)?.state;
    if (from === undefined || from === to) return;
    const freed = this.dag.setState(id, to, at);
    this.moved(id, from, to, at);
    this.ready.refresh(id, at);
    for (const d of freed) this.ready.refresh(d, at);
  }

  /** Its priority, lane, urgent flag or files changed (dependencies cannot). */
  update(task: SchedTask, now: number): void {
    const node = this.ready.nodes.get(task.id);
    if (!node) return;
    const state = this.dag.get(task.id)!.state;
    if (node.task.lane !== task.lane && isStage(state)) {
      this.laneActive.set(node.task.lane, this.inFlight(node.task.lane) - 1);
      this.laneActive.set(task.lane, this.inFlight(task.lane) + 1);
    }
    node.task = task;
    this.ready.rekey(task.id, now);
  }

  /** The next attempt may not start before `at` (retry backoff); undefined clears it. */
  setRetryAt(id: string, at: number | undefined, now: number): void {
    const node = this.ready.nodes.get(id);
    if (!node || node.retryAt === at) return;
    node.retryAt = at;
    if (node.queued) this.ready.dequeue(node);
    this.ready.refresh(id, now);
  }

  /** The earliest retry time among tasks in backoff, if any. */
  nextRetryAt(): number | undefined {
    return this.ready.nextRetryAt();
  }

  /** Picks up to `max` tasks to start now, best first, and moves them to RUNNING. */
  pick(now: number, max = Infinity): PickResult {
    this.ready.promoteDue(now);
    const verdict = this.stages.startVerdict();
    if (!verdict.ok)
      return { picks: [], reason: verdict.reason, backpressure: verdict.backpressure, skippedLanes: [], parked: [] };
    const result: PickResult = { picks: [], backpressure: false, skippedLanes: [], parked: [] };
    let free = Math.min(max, verdict.free);
    let skip: Set<string> | undefined;
    while (free > 0) {
      const best = this.ready.queues.best(now, skip);
      if (!best) break;
      const { entry, lane } = best;
      const gate = this.options.laneGate?.(lane, this.inFlight(lane), now);
      if (gate && !gate.allow) {
        (skip ??= new Set()).add(lane);
        result.skippedLanes.push({ lane, reason: gate.reason });
        continue;
      }
      this.ready.queues.pop(lane);
      const node = this.ready.nodes.get(entry.id)!;
      const held = node.task.files.length ? this.files.conflict(node.task.id, node.task.files) : undefined;
      if (held !== undefined) {
        this.ready.dequeue(node);
        node.parkedOn = held;
        this.files.park(node.task.id, held);
        result.parked.push({ id: node.task.id, file: held, heldBy: this.files.holder(held)! });
        continue;
      }
      const inputs = this.ready.inputs(node);
      result.picks.push({
        id: node.task.id,
        lane,
        score: scoreAt(inputs, now, this.options.agingPerMinute),
        inputs,
        at: now,
        waitedMs: Math.max(0, now - node.readySince),
      });
      this.setState(node.task.id, 'RUNNING', now);
      free -= 1;
    }
    if (free > 0 && result.picks.length === 0) {
      result.reason = result.skippedLanes.length
        ? result.skippedLanes.map((s) => `lane ${s.lane}: ${s.reason}`).join('; ')
        : this.ready.size
          ? 'ready tasks are waiting for files held by tasks in progress'
          : 'no task is ready';
    }
    return result;
  }

  /** Why this task now: its score and what made it up. */
  explain(pick: Pick): string {
    return explainScore(pick.inputs, pick.at, this.options.agingPerMinute);
  }

  /** Whether `lane` has a task in the ready set. */
  hasReady(lane: string, now: number): boolean {
    return this.ready.queues.hasLive(lane, now);
  }

  /** How long the longest-waiting ready task has waited (0 when none is ready). */
  oldestReadyWaitMs(now: number): number {
    return this.ready.oldestWaitMs(now);
  }

  /** Why a task is not running now, in a few words. */
  waitingReason(id: string, now: number): string {
    const node = this.ready.nodes.get(id);
    const dag = this.dag.get(id);
    if (!node || !dag) return 'unknown task';
    if (dag.state !== 'READY') return `is ${dag.state}`;
    if (dag.unmet > 0) return `waits on ${this.dag.unmetDeps(id).join(', ')} (not DONE)`;
    if (node.retryAt !== undefined && node.retryAt > now)
      return `retry backoff until ${new Date(node.retryAt).toISOString()}`;
    if (node.parkedOn !== undefined)
      return `waits for ${node.parkedOn}, held by ${this.files.holder(node.parkedOn) ?? 'a task in progress'}`;
    return `ready (${explainScore(this.ready.inputs(node), now, this.options.agingPerMinute)})`;
  }

  /** Stage counts, file ownership and per-lane in-flight counts follow the state. */
  private moved(id: string, from: TaskState | undefined, to: TaskState, at: number): void {
    this.stages.move(from, to);
    const wasActive = from !== undefined && ACTIVE.has(from);
    const isActive = ACTIVE.has(to);
    if (wasActive === isActive) return;
    const { lane, files } = this.ready.nodes.get(id)!.task;
    this.laneActive.set(lane, this.inFlight(lane) + (isActive ? 1 : -1));
    if (!files.length) return;
    if (isActive) {
      this.files.claim(id, files);
      return;
    }
    for (const other of this.files.release(id, files)) {
      const n = this.ready.nodes.get(other);
      if (n?.parkedOn === undefined) continue;
      n.parkedOn = undefined;
      this.ready.refresh(other, at);
    }
  }
}

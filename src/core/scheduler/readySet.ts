import type { DagIndex } from './dagIndex';
import { PriorityQueue } from './priorityQueue';
import { orderKey, type PriorityInputs } from './priorityScore';
import { ReadyQueues, type ReadyEntry } from './readyQueues';
import type { SchedTask } from './schedTask';

export interface ReadyNode {
  task: SchedTask;
  /** Bumped whenever the task leaves or re-enters the ready set; heap entries of older versions are stale. */
  version: number;
  queued: boolean;
  readySince: number;
  retryAt?: number;
  parkedOn?: string;
}

/**
 * Membership of the ready set: a task is in it when it is READY, its
 * dependencies are DONE, no file of it is held, it is not held back, and its
 * retry backoff has passed (until then it waits in a time-ordered heap).
 * `refresh` re-evaluates one task after an event; nothing is ever rescanned.
 */
export class ReadySet {
  readonly nodes = new Map<string, ReadyNode>();
  readonly queues: ReadyQueues;
  private readonly delayed = new PriorityQueue<{ id: string; at: number }>((a, b) => a.at < b.at);
  private readonly ages = new PriorityQueue<{ id: string; version: number; since: number }>(
    (a, b) => a.since < b.since,
  );
  private count = 0;

  constructor(
    private readonly dag: DagIndex,
    private readonly agingPerMinute: number,
    private readonly costOf?: (lane: string) => number,
  ) {
    this.queues = new ReadyQueues({
      live: (e) => {
        const node = this.nodes.get(e.id);
        return node?.queued === true && node.version === e.version;
      },
      rekey: (e, now) => orderKey(this.inputs(this.nodes.get(e.id)!), now, this.agingPerMinute),
    });
  }

  get size(): number {
    return this.count;
  }

  inputs(node: ReadyNode): PriorityInputs {
    const t = node.task;
    return {
      priority: t.priority,
      urgentUntil: t.urgentUntil,
      unblocks: this.dag.get(t.id)?.dependents.length ?? 0,
      estCostUsd: this.costOf?.(t.lane) ?? 0,
      readySince: node.readySince,
    };
  }

  /** Puts the task in (or takes it out of) the ready set according to its state now. */
  refresh(id: string, now: number): void {
    const node = this.nodes.get(id);
    const dag = this.dag.get(id);
    if (!node || !dag) return;
    const eligible = dag.state === 'READY' && dag.unmet === 0 && node.parkedOn === undefined && !node.task.hold;
    if (!eligible) {
      if (node.queued) this.dequeue(node);
      return;
    }
    if (node.retryAt !== undefined && node.retryAt > now) {
      if (node.queued) this.dequeue(node);
      this.delayed.push({ id, at: node.retryAt });
      return;
    }
    if (!node.queued) this.enqueue(node, now);
  }

  dequeue(node: ReadyNode): void {
    node.version += 1;
    node.queued = false;
    this.count -= 1;
  }

  /** Re-keys a task in the ready set (its priority inputs changed). */
  rekey(id: string, now: number): void {
    const node = this.nodes.get(id);
    if (!node?.queued) return;
    this.dequeue(node);
    this.refresh(id, now);
  }

  promoteDue(now: number): void {
    while (this.delayed.size && this.delayed.peek()!.at <= now) this.refresh(this.delayed.pop()!.id, now);
  }

  nextRetryAt(): number | undefined {
    while (this.delayed.size) {
      const top = this.delayed.peek()!;
      const node = this.nodes.get(top.id);
      if (node && node.retryAt === top.at && !node.queued) return top.at;
      this.delayed.pop();
    }
    return undefined;
  }

  oldestWaitMs(now: number): number {
    while (this.ages.size) {
      const top = this.ages.peek()!;
      const node = this.nodes.get(top.id);
      if (node?.queued && node.version === top.version) return Math.max(0, now - top.since);
      this.ages.pop();
    }
    return 0;
  }

  private enqueue(node: ReadyNode, now: number): void {
    const dag = this.dag.get(node.task.id)!;
    node.version += 1;
    node.queued = true;
    node.readySince = Math.max(dag.since, dag.depsDoneAt);
    this.count += 1;
    const inputs = this.inputs(node);
    const entry: ReadyEntry = {
      id: node.task.id,
      version: node.version,
      key: orderKey(inputs, now, this.agingPerMinute),
      order: node.task.order,
    };
    if (inputs.urgentUntil !== undefined && inputs.urgentUntil > now) entry.urgentUntil = inputs.urgentUntil;
    this.queues.push(node.task.lane, entry);
    this.ages.push({ id: node.task.id, version: node.version, since: node.readySince });
  }
}

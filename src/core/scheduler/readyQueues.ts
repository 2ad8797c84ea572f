import { PriorityQueue } from './priorityQueue';

/** A heap entry; stale when its version is not the task's current one (lazy deletion). */
export interface ReadyEntry {
  id: string;
  version: number;
  key: number;
  /** The entry's key includes the urgent bonus until then (epoch ms). */
  urgentUntil?: number;
  order: number;
}

const before = (a: ReadyEntry, b: ReadyEntry): boolean => a.key > b.key || (a.key === b.key && a.order < b.order);

export interface ReadyQueueHooks {
  /** Whether the entry is still the task's live entry. */
  live(entry: ReadyEntry): boolean;
  /** The entry's key without an expired urgent bonus. */
  rekey(entry: ReadyEntry, now: number): number;
}

/**
 * The ready set's order: one max-heap per lane (so an open breaker on one
 * lane never makes the others wait or rescan), stale entries dropped when
 * they surface, and an entry whose urgent flag expired re-keyed when it
 * reaches the top (expiry only ever lowers a key, so this is exact).
 */
export class ReadyQueues {
  private readonly lanes: { lane: string; heap: PriorityQueue<ReadyEntry> }[] = [];
  private readonly byLane = new Map<string, PriorityQueue<ReadyEntry>>();

  constructor(private readonly hooks: ReadyQueueHooks) {}

  push(lane: string, entry: ReadyEntry): void {
    let heap = this.byLane.get(lane);
    if (!heap) {
      heap = new PriorityQueue(before);
      this.byLane.set(lane, heap);
      this.lanes.push({ lane, heap });
    }
    heap.push(entry);
  }

  /** The best live entry over every lane not in `skip`, and its lane. */
  best(now: number, skip: ReadonlySet<string> | undefined): { entry: ReadyEntry; lane: string } | undefined {
    let best: ReadyEntry | undefined;
    let bestLane = '';
    for (const { lane, heap } of this.lanes) {
      if (skip?.has(lane)) continue;
      const top = this.top(heap, now);
      if (top && (!best || before(top, best))) {
        best = top;
        bestLane = lane;
      }
    }
    return best ? { entry: best, lane: bestLane } : undefined;
  }

  /** Removes the top of `lane`'s heap (the entry `best` returned). */
  pop(lane: string): void {
    this.byLane.get(lane)?.pop();
  }

  hasLive(lane: string, now: number): boolean {
    const heap = this.byLane.get(lane);
    return heap !== undefined && this.top(heap, now) !== undefined;
  }

  private top(heap: PriorityQueue<ReadyEntry>, now: number): ReadyEntry | undefined {
    for (;;) {
      const e = heap.peek();
      if (!e) return undefined;
      if (!this.hooks.live(e)) {
        heap.pop();
        continue;
      }
      if (e.urgentUntil !== undefined && e.urgentUntil <= now) {
        heap.pop();
        heap.push({ id: e.id, version: e.version, order: e.order, key: this.hooks.rekey(e, now) });
        continue;
      }
      return e;
    }
  }
}

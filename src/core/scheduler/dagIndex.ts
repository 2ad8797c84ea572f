import type { TaskState } from '../model/taskStates';

export interface DagNode {
  readonly id: string;
  readonly deps: readonly string[];
  /** Tasks that depend on this one (reverse edges). */
  readonly dependents: string[];
  /** Dependencies not DONE yet. */
  unmet: number;
  state: TaskState;
  /** When the node entered its current state (epoch ms). */
  since: number;
  /** When the last unmet dependency became DONE (epoch ms); 0 when it never had any. */
  depsDoneAt: number;
}

/**
 * The task DAG as dependency counts and reverse edges. A state event touches
 * only the task and its direct dependents: when a task becomes DONE, each
 * dependent's count of unmet dependencies drops, and those reaching zero are
 * returned, so the caller can put them in the ready set. Dependencies may be
 * added after their dependents (they count as unmet until then).
 */
export class DagIndex {
  readonly nodes = new Map<string, DagNode>();
  private readonly pending = new Map<string, string[]>();

  get size(): number {
    return this.nodes.size;
  }

  get(id: string): DagNode | undefined {
    return this.nodes.get(id);
  }

  /** Adds a task; returns dependents whose last unmet dependency this (DONE) task was. */
  add(id: string, deps: readonly string[], state: TaskState, at: number): string[] {
    const node: DagNode = { id, deps, dependents: [], unmet: 0, state, since: at, depsDoneAt: 0 };
    for (const depId of node.deps) {
      const dep = this.nodes.get(depId);
      if (dep) {
        dep.dependents.push(id);
        if (dep.state !== 'DONE') node.unmet += 1;
        else node.depsDoneAt = Math.max(node.depsDoneAt, dep.since);
      } else {
        node.unmet += 1;
        const waiting = this.pending.get(depId);
        if (waiting) waiting.push(id);
        else this.pending.set(depId, [id]);
      }
    }
    this.nodes.set(id, node);
    const early = this.pending.get(id);
    if (!early) return [];
    this.pending.delete(id);
    node.dependents.push(...early);
    return state === 'DONE' ? this.release(node, at) : [];
  }

  /** Records a state change; returns dependents that became free of unmet dependencies. */
  setState(id: string, to: TaskState, at: number): string[] {
    const node = this.nodes.get(id);
    if (!node || node.state === to) return [];
    const wasDone = node.state === 'DONE';
    node.state = to;
    node.since = at;
    if (to === 'DONE' && !wasDone) return this.release(node, at);
    if (wasDone && to !== 'DONE') for (const d of node.dependents) this.nodes.get(d)!.unmet += 1;
    return [];
  }

  /** The dependencies of `id` that are not DONE. */
  unmetDeps(id: string): string[] {
    const node = this.nodes.get(id);
    if (!node) return [];
    return node.deps.filter((d) => this.nodes.get(d)?.state !== 'DONE');
  }

  private release(node: DagNode, at: number): string[] {
    const freed: string[] = [];
    for (const d of node.dependents) {
      const dependent = this.nodes.get(d)!;
      dependent.unmet -= 1;
      dependent.depsDoneAt = Math.max(dependent.depsDoneAt, at);
      if (dependent.unmet === 0) freed.push(d);
    }
    return freed;
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProcessGroupRecord } from './processGroupRecord';
import type { ProcessGroup } from './processGroup';

/**
 * The process groups a run has alive: every group started inside
 * `withRunGroups` (its lane, the agent's commands, acceptance) joins the
 * run's set. `onChange` gets the records whenever the set changes (the run
 * writes them to its lease), and `stopAll` ends what is left once the lane
 * is done, before its change is committed.
 */
export class RunGroups {
  private readonly live = new Set<ProcessGroup>();

  constructor(private readonly onChange: (records: ProcessGroupRecord[]) => void = () => undefined) {}

  add(group: ProcessGroup): void {
    this.live.add(group);
  }

  /** A group of the set started (its record is known now). */
  changed(): void {
    this.onChange(this.records());
  }

  delete(group: ProcessGroup): void {
    if (this.live.delete(group)) this.onChange(this.records());
  }

  records(): ProcessGroupRecord[] {
    return [...this.live].flatMap((g) => (g.record ? [g.record] : []));
  }

  /** Ends every group still alive and waits until each is gone; returns how many there were. */
  async stopAll(): Promise<number> {
    const left = [...this.live];
    for (const group of left) group.stop();
    await Promise.all(left.map((g) => g.done));
    return left.length;
  }
}

const scope = new AsyncLocalStorage<RunGroups>();

/** Runs `fn` with `groups` as the run every process group started inside it belongs to. */
export function withRunGroups<T>(groups: RunGroups, fn: () => Promise<T>): Promise<T> {
  return scope.run(groups, fn);
}

/** The run the calling code works for, if any. */
export function currentRunGroups(): RunGroups | undefined {
  return scope.getStore();
}

/** Ends every process group the current run still has alive and waits for them (none outside a run). */
export async function endRunGroups(): Promise<void> {
  await currentRunGroups()?.stopAll();
}

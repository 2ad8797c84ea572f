import { EventEmitter } from 'node:events';
import type { Stage, TaskState } from '../model/taskStates';
import type { StateStore } from '../backend/stateStore';
import type { Run } from '../model/run';
import { staleBecause } from '../transitions/inputHash';
import { setTaskState } from '../transitions/setTaskState';
import { lastWithId } from '../store/lastWithId';
import { afterShared } from '../store/sharedPrefix';

export type EnterResult = { entered: true; waitedMs: number } | { entered: false; why: 'stale' | 'aborted' };

export interface EnterRequest {
  taskId: string;
  /** The run asking: the task must still be this run's (staleBecause). */
  run: Pick<Run, 'generation' | 'inputHash'>;
  /** The states the task may be in to move on (its current stage). */
  from: readonly TaskState[];
  to: Stage;
  signal: AbortSignal;
  /** Called once when the task has to wait, with why. */
  onWait?(message: string): void;
}

const POLL_MS = 250;

/**
 * Admission to a downstream stage under its WIP limit. The check and the
 * move happen in one store transaction, counting every process's tasks, so
 * a limit holds across windows and terminals. A run that finds its next
 * stage full waits where it is (its task keeps its current slot), woken when
 * this process frees a slot or by a short poll for other processes.
 */
export class StageGate {
  private readonly events = new EventEmitter();
  private readonly waiting: Record<Stage, Map<string, number>> = {
    RUNNING: new Map(),
    VERIFYING: new Map(),
    REVIEWING: new Map(),
    INTEGRATING: new Map(),
    AWAITING_CI: new Map(),
  };

  constructor(private readonly store: StateStore) {
    this.events.setMaxListeners(0);
  }

  /** Something may have left a stage: waiters try again, the queue runner may start runs. */
  notify(): void {
    this.events.emit('change');
  }

  /** A task of this process left the pipeline (its run's end is recorded): its slot is free; waiters try again. */
  left(taskId: string): void {
    this.events.emit('left', taskId);
    this.notify();
  }

  /** Called with each task this process takes out of the pipeline (see `left`). */
  onLeft(listener: (taskId: string) => void): () => void {
    this.events.on('left', listener);
    return () => this.events.off('left', listener);
  }

  /** Called with each task this process moves into a stage. */
  onEntered(listener: (taskId: string, stage: Stage) => void): () => void {
    this.events.on('entered', listener);
    return () => this.events.off('entered', listener);
  }

  onChange(listener: () => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }

  /** Tasks of this process waiting to enter each stage, and since when (epoch ms). */
  waiters(stage: Stage): ReadonlyMap<string, number> {
    return this.waiting[stage];
  }

  async enter(request: EnterRequest): Promise<EnterResult> {
    const started = Date.now();
    let announced = false;
    try {
      for (let first = true; ; first = false) {
        let holders: string[] = [];
        let limit = 0;
        // The first try goes straight to the change (a stage usually has room); after a wait, or once stopped, a look
        // without the lock (the task, in a stage so not finished, and the stage's holders are all in the working set)
        // comes first.
        const look = !first || request.signal.aborted;
        if (look) {
          const peek = await this.store.readWorking();
          const task = peek.tasks.find((t) => t.id === request.taskId);
          // A canceled task's result is stale (kept, never integrated), even though the cancel also aborted the run.
          if (!task || staleBecause(task, request.run) || !request.from.includes(task.state))
            return { entered: false, why: 'stale' };
          holders = peek.tasks.filter((t) => t.state === request.to).map((t) => t.id);
          limit = peek.settings.wip[request.to];
        }
        if (request.signal.aborted) return { entered: false, why: 'aborted' };
        if (!look || holders.length < limit) {
          const moved = await this.store.updateWorking((state) => {
            const current = lastWithId(state.tasks, request.taskId);
            if (!current || staleBecause(current, request.run) || !request.from.includes(current.state))
              return { kind: 'stale' as const };
            // A task in a stage is not finished: none is among the history's shared tasks.
            const inStage = afterShared(state.tasks)
              .filter((t) => t.state === request.to)
              .map((t) => t.id);
            if (inStage.length >= state.settings.wip[request.to])
              return { kind: 'full' as const, holders: inStage, limit: state.settings.wip[request.to] };
            setTaskState(current, request.to);
            return { kind: 'entered' as const };
          });
          if (moved.kind === 'entered') {
            this.events.emit('entered', request.taskId, request.to);
            this.notify();
            return { entered: true, waitedMs: announced ? Date.now() - started : 0 };
          }
          if (moved.kind === 'stale') return { entered: false, why: 'stale' };
          ({ holders, limit } = moved);
        }
        if (!announced) {
          announced = true;
          this.waiting[request.to].set(request.taskId, started);
          request.onWait?.(
            `waiting for a ${request.to} slot: ${holders.length}/${limit} taken (${holders.join(', ')})`,
          );
        }
        await this.wake(request.signal);
      }
    } finally {
      this.waiting[request.to].delete(request.taskId);
    }
  }

  private wake(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        off();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, POLL_MS);
      const off = this.onChange(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

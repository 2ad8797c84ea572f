import type { Run } from '../../model/run';
import { staleBecause } from '../../transitions/inputHash';
import type { RunContext } from '../runContext';

/**
 * Calls `onStale` once when the run stops being current — the one rule, staleBecause: its task canceled or its input
 * changed — or its task is gone. Checked at once, then whenever the store says it changed (the backend's change feed:
 * another window, a terminal or a worker) or this process changed something (the stage gate rings): no poll. Events
 * that come while a check reads the store make one more check. Returns the function that stops watching.
 */
export function whenStale(
  ctx: Pick<RunContext, 'store' | 'stageGate' | 'watchState'>,
  taskId: string,
  run: Run,
  onStale: (why: string) => void,
): () => void {
  let stopped = false;
  let checking = false;
  let again = false;
  const check = async (): Promise<void> => {
    if (stopped) return;
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    try {
      do {
        again = false;
        // A running task is unfinished: in the working set.
        const task = (await ctx.store.readWorking()).tasks.find((t) => t.id === taskId);
        const why = task ? staleBecause(task, run) : `task ${taskId} is no longer in the queue`;
        if (why && !stopped) {
          stop();
          onStale(why);
        }
      } while (again && !stopped);
    } catch {
      // The store could not be read now: the next change checks again.
    } finally {
      checking = false;
    }
  };
  const offFeed = ctx.watchState(() => void check());
  const offHere = ctx.stageGate.onChange(() => void check());
  const stop = (): void => {
    stopped = true;
    offFeed();
    offHere();
  };
  void check();
  return stop;
}

import type { LayeredStateStore } from '../backend/layeredStateStore';
import type { RunContext } from '../engine/runContext';
import type { LaneRegistry } from '../lanes/laneRegistry';

/** What the façade's services share: one project's repository, store, run context and lanes. */
export interface ProjectCore {
  readonly root: string;
  /** Tasks, runs and settings in the backend, with the settings' layers (committed, local, editor). */
  readonly store: LayeredStateStore;
  readonly ctx: RunContext;
  readonly registry: LaneRegistry;
  /**
   * Runs a change to the queue, its settings or its routing, then tells the project: a drain running in this process
   * looks at the queue again at once (a task the change lets start starts now), and listeners are told. Every change
   * a service makes goes through here.
   */
  command<T>(change: () => Promise<T>): Promise<T>;
}

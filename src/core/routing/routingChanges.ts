import { SwitchyardError } from '../errors';
import type { LaneRegistry } from '../lanes/laneRegistry';
import type { ProjectState } from '../store/projectState';
import type { StateStore } from '../backend/stateStore';
import type { Canary, RoutingChange, RoutingSnapshot } from '../model/routingState';

export interface ChangeAuthor {
  who: string;
  why: string;
}

export interface CanaryThresholds {
  holdBelow: number;
  expandAtCost: number;
  windowMs: number;
  minSamples: number;
}

export const DEFAULT_CANARY_THRESHOLDS: CanaryThresholds = {
  holdBelow: 0.7,
  expandAtCost: 0.3,
  windowMs: 7 * 24 * 3_600_000,
  minSamples: 10,
};

function snapshot(state: ProjectState): RoutingSnapshot {
  return structuredClone({
    defaultLane: state.settings.defaultLane,
    ...(state.routing.canary ? { canary: state.routing.canary } : {}),
  });
}

/** Applies `change` to the routing and records it as one change with who, when, why, before and after. */
function record(
  state: ProjectState,
  kind: RoutingChange['kind'],
  author: ChangeAuthor,
  change: () => void,
): RoutingChange {
  if (!author.why.trim()) throw new SwitchyardError('invalid-input', 'a routing change needs a reason (why)');
  const previous = snapshot(state);
  change();
  const entry: RoutingChange = {
    id: (state.routing.history.at(-1)?.id ?? 0) + 1,
    at: new Date().toISOString(),
    who: author.who,
    why: author.why,
    kind,
    previous,
    next: snapshot(state),
  };
  state.routing.history.push(entry);
  return entry;
}

/** Sets the project's default lane as one recorded change. */
export async function setDefaultLaneRecorded(
  store: StateStore,
  registry: LaneRegistry,
  lane: string,
  author: ChangeAuthor,
): Promise<RoutingChange> {
  registry.require(lane);
  return store.update((state) => {
    if (state.routing.canary) {
      throw new SwitchyardError(
        'invalid-input',
        `a canary of lane "${state.routing.canary.lane}" is running: end it with \`switchyard canary rollback\` or \`canary end\` first`,
      );
    }
    return record(state, 'default-lane', author, () => {
      state.settings.defaultLane = lane;
    });
  });
}

/**
 * Starts a canary: the default lane flips to `lane` and the thresholds that
 * will judge it are stored now, before any result exists. One recorded change.
 */
export async function startCanary(
  store: StateStore,
  registry: LaneRegistry,
  lane: string,
  thresholds: CanaryThresholds,
  author: ChangeAuthor,
): Promise<RoutingChange> {
  registry.require(lane);
  return store.update((state) => {
    if (state.routing.canary)
      throw new SwitchyardError(
        'invalid-input',
        `a canary of lane "${state.routing.canary.lane}" is already running (since ${state.routing.canary.startedAt})`,
      );
    if (state.settings.defaultLane === lane)
      throw new SwitchyardError('invalid-input', `lane "${lane}" is already the project's default lane`);
    const canary: Canary = {
      lane,
      baselineLane: state.settings.defaultLane,
      startedAt: new Date().toISOString(),
      ...thresholds,
    };
    return record(state, 'canary-start', author, () => {
      state.settings.defaultLane = lane;
      state.routing.canary = canary;
    });
  });
}

/** Restores exactly the routing before the canary started. One recorded change. */
export async function rollbackCanary(store: StateStore, author: ChangeAuthor): Promise<RoutingChange> {
  return store.update((state) => {
    const start = [...state.routing.history].reverse().find((c) => c.kind === 'canary-start');
    if (!state.routing.canary || !start) throw new SwitchyardError('invalid-input', 'no canary is running');
    return record(state, 'canary-rollback', author, () => {
      state.settings.defaultLane = start.previous.defaultLane;
      if (start.previous.canary) state.routing.canary = start.previous.canary;
      else delete state.routing.canary;
    });
  });
}

/** Keeps the canary lane as the default and stops judging it. One recorded change. */
export async function endCanary(store: StateStore, author: ChangeAuthor): Promise<RoutingChange> {
  return store.update((state) => {
    if (!state.routing.canary) throw new SwitchyardError('invalid-input', 'no canary is running');
    return record(state, 'canary-end', author, () => {
      delete state.routing.canary;
    });
  });
}

/** Thresholds change only through this: one recorded change, with a reason. */
export async function changeCanaryThresholds(
  store: StateStore,
  thresholds: Partial<CanaryThresholds>,
  author: ChangeAuthor,
): Promise<RoutingChange> {
  return store.update((state) => {
    const canary = state.routing.canary;
    if (!canary) throw new SwitchyardError('invalid-input', 'no canary is running');
    return record(state, 'canary-thresholds', author, () => {
      state.routing.canary = { ...canary, ...thresholds };
    });
  });
}

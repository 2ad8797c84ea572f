import type { RoutingChange } from '../model/routingState';
import { canaryReport, type CanaryReport } from '../routing/canaryReport';
import {
  type CanaryThresholds,
  type ChangeAuthor,
  DEFAULT_CANARY_THRESHOLDS,
  changeCanaryThresholds,
  endCanary,
  rollbackCanary,
  setDefaultLaneRecorded,
  startCanary,
} from '../routing/routingChanges';
import { whoAmI } from '../routing/whoAmI';
import type { ProjectCore } from './projectCore';

export type { CanaryThresholds } from '../routing/routingChanges';
export type { CanaryReport } from '../routing/canaryReport';

/** `project.routing`: the default lane and canaries, each change recorded with who (git's user.email) and why. */
export class RoutingService {
  constructor(private readonly core: ProjectCore) {}

  /** Sets the project's default lane. */
  setDefaultLane(lane: string, why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => setDefaultLaneRecorded(this.core.store, this.core.registry, lane, author));
  }

  /** Makes `lane` the default as a canary judged against the current default; unset thresholds take the defaults. */
  startCanary(lane: string, thresholds: Partial<CanaryThresholds>, why: string): Promise<RoutingChange> {
    const { store, registry } = this.core;
    return this.recorded(why, (author) =>
      startCanary(store, registry, lane, { ...DEFAULT_CANARY_THRESHOLDS, ...thresholds }, author),
    );
  }

  /** Restores the default lane from before the canary. */
  rollbackCanary(why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => rollbackCanary(this.core.store, author));
  }

  /** Keeps the canary lane as the default and stops judging it. */
  endCanary(why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => endCanary(this.core.store, author));
  }

  changeCanaryThresholds(thresholds: Partial<CanaryThresholds>, why: string): Promise<RoutingChange> {
    return this.recorded(why, (author) => changeCanaryThresholds(this.core.store, thresholds, author));
  }

  /** The running canary against its baseline, with the verdict; `undefined` when no canary runs. */
  async canaryReport(): Promise<CanaryReport | undefined> {
    const state = await this.core.store.read();
    return state.routing.canary ? canaryReport(state, state.routing.canary) : undefined;
  }

  private recorded(why: string, change: (author: ChangeAuthor) => Promise<RoutingChange>): Promise<RoutingChange> {
    return this.core.command(async () => change({ who: await whoAmI(this.core.root), why }));
  }
}

import { ReadinessCache, checkLaneReadiness } from '../lanes/laneReadiness';
import type { LaneReadiness } from '../lanes/lanePlugin';
import type { LaneRegistry } from '../lanes/laneRegistry';
import type { LaneManifest } from '../model/laneManifest';
import { envSecretSource } from '../secrets/secretSource';
import type { ProjectCore } from './projectCore';

export type { LaneFix, LaneReadiness } from '../lanes/lanePlugin';
export { parseSettingValue } from '../lanes/parseSettingValue';
export { notReady, readinessProblems } from '../lanes/readinessProblems';
export { unknownLaneIds } from '../lanes/unknownLaneIds';

/** A registered lane and whether it can run as configured. */
export interface LaneStatus {
  manifest: LaneManifest;
  readiness: LaneReadiness;
}

/** `project.lanes`: the registered lanes and whether each can run here. */
export class LaneService {
  private readonly readiness = new ReadinessCache();

  constructor(private readonly core: ProjectCore) {}

  /**
   * Every registered lane (sorted by id) with whether it can run as configured here: its effective settings (the
   * editor's included), its secrets, its own cheap check. Answers are cached for a short while; `fresh` checks again.
   */
  async statuses(fresh = false): Promise<LaneStatus[]> {
    if (fresh) this.readiness.clear();
    const { store, registry, ctx } = this.core;
    const state = await store.read();
    return Promise.all(
      registry.list().map(async (lane) => {
        const id = lane.manifest.id;
        const settings = state.settings.laneSettings[id] ?? {};
        const readiness = await this.readiness.get(lane, { settings, secrets: ctx.secrets, parentEnv: ctx.parentEnv });
        return { manifest: lane.manifest, readiness };
      }),
    );
  }
}

/**
 * Whether each lane of `registry` can run outside any project (no repository here): with no lane settings, secrets
 * from `env` only.
 */
export function laneStatusesOutside(registry: LaneRegistry, env: NodeJS.ProcessEnv): Promise<LaneStatus[]> {
  return Promise.all(
    registry.list().map(async (lane) => ({
      manifest: lane.manifest,
      readiness: await checkLaneReadiness(lane, { settings: {}, secrets: envSecretSource(env), parentEnv: env }),
    })),
  );
}

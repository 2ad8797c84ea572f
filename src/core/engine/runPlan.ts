import type { ProjectSettings } from '../store/projectState';
import type { RunContext } from './runContext';

/** A lane's settings as a run uses them: the project's with the editor's override on top, and that override alone. */
export interface PlannedLane {
  readonly settings: Readonly<Record<string, unknown>>;
  readonly override: Readonly<Record<string, unknown>> | undefined;
}

/**
 * What a run goes by from its claim to its end, decided once: the project's effective settings as the claim read them
 * (every layer), and each lane's settings (the project's, then the editor's override) fixed the first time the run
 * asks. Every stage reads the plan, never the store, so a settings edit during a run applies from the next run on, not
 * to half of this one.
 */
export interface RunPlan {
  readonly settings: ProjectSettings;
  lane(laneId: string): PlannedLane;
}

export function planRun(ctx: Pick<RunContext, 'laneSettingsOverride'>, settings: ProjectSettings): RunPlan {
  const lanes = new Map<string, PlannedLane>();
  return {
    settings,
    lane(laneId) {
      let fixed = lanes.get(laneId);
      if (!fixed) {
        const override = ctx.laneSettingsOverride?.(laneId);
        fixed = { settings: { ...(settings.laneSettings[laneId] ?? {}), ...(override ?? {}) }, override };
        lanes.set(laneId, fixed);
      }
      return fixed;
    },
  };
}

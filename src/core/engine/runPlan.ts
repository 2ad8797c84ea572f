import type { ProjectSettings } from '../store/projectState';

/** A lane's settings as a run uses them: the effective ones (every layer, the editor's `switchyard.lanes` included). */
export interface PlannedLane {
  readonly settings: Readonly<Record<string, unknown>>;
}

/**
 * What a run goes by from its claim to its end, decided once: the project's effective settings as the claim read them
 * (every layer, the editor's included), each lane's among them. Every stage reads the plan, never the store, so a
 * settings edit during a run applies from the next run on, not to half of this one.
 */
export interface RunPlan {
  readonly settings: ProjectSettings;
  lane(laneId: string): PlannedLane;
}

export function planRun(settings: ProjectSettings): RunPlan {
  return {
    settings,
    lane: (laneId) => ({ settings: settings.laneSettings[laneId] ?? {} }),
  };
}

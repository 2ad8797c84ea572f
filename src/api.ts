/**
 * The public lane API: everything a lane plugin may import, and exactly what
 * switchyard.d.ts describes (test/types/publicApi.ts checks both ways).
 * Built-in lanes under `plugins/` use only this module, exactly like
 * third-party lanes, which get the values below from `getAPI(1)` (an
 * extension) or as the argument of their module's default export (a CLI lane
 * module).
 */
import { LANE_API_VERSION } from './core/model/laneManifest';
import { startProcessGroup } from './core/process/startProcessGroup';
import { failureLeadLines } from './core/text/failureLines';
import { ApiLaneSettings, API_LANE_SETTING_DOCS, parseLaneSettings } from './core/agent/apiLaneSettings';
import type { ApiLaneRun } from './core/agent/runApiLane';
import type { LanePlugin, Disposable, LaneRunInput } from './core/lanes/lanePlugin';
import type { LaneResultInput } from './core/model/laneResult';
import { loadModule } from './lanes/loadModule';
import type { LaneManifestInput } from './core/model/laneManifest';

export type { LanePlugin, LaneRunInput, LaneTask, LaneAttempt, Disposable } from './core/lanes/lanePlugin';
export type { LaneReadiness, LaneReadinessInput, LaneFix } from './core/lanes/lanePlugin';
export type { LaneManifestInput as LaneManifest, PriceTable } from './core/model/laneManifest';
export type { LaneEventInput as LaneEvent, UsageInput as Usage } from './core/model/laneEvent';
export type { LaneResultInput as LaneResult } from './core/model/laneResult';
export type { CallSpec, CallResult } from './core/journal/durableCalls';
export type { ProcessGroup, ProcessGroupSpec, ProcessGroupExit } from './core/process/startProcessGroup';
export type { ProcessGroupRecord } from './core/process/processGroupRecord';
export type { ApiLaneRun } from './core/agent';
export {
  LANE_API_VERSION,
  startProcessGroup,
  runApiLane,
  ApiLaneSettings,
  API_LANE_SETTING_DOCS,
  parseLaneSettings,
  failureLeadLines,
};

/**
 * The agent loop of the API lanes (src/core/agent) and the AI SDK under it load on an API lane's first run, not with
 * the lane's manifest and settings, which every process that lists or routes lanes reads.
 */
async function runApiLane(input: LaneRunInput, run: ApiLaneRun): Promise<LaneResultInput> {
  const agent = await loadModule(
    () => require('./core/agent/runApiLane'),
    () => import('./core/agent/runApiLane'),
  );
  return agent.runApiLane(input, run);
}

/** The values of the API, handed to third-party lanes at run time. */
export interface LaneToolkit {
  readonly LANE_API_VERSION: typeof LANE_API_VERSION;
  readonly startProcessGroup: typeof startProcessGroup;
  readonly runApiLane: typeof runApiLane;
  readonly ApiLaneSettings: typeof ApiLaneSettings;
  readonly API_LANE_SETTING_DOCS: typeof API_LANE_SETTING_DOCS;
  readonly parseLaneSettings: typeof parseLaneSettings;
  readonly failureLeadLines: typeof failureLeadLines;
}

/** Version 1 of the API: the lane registry and the toolkit. */
export interface SwitchyardAPI extends LaneToolkit {
  /**
   * Validates the manifest (strict) and registers the lane; disposing removes it. Throws on an invalid manifest or a
   * duplicate id.
   */
  registerLane(plugin: LanePlugin): Disposable;
  /** The registered lanes' manifests, validated, sorted by id. */
  lanes(): LaneManifestInput[];
}

/** What Switchyard's `activate()` returns. */
export interface SwitchyardExtension {
  /** Any version but 1 throws a SwitchyardError `unsupported-api-version` listing the supported versions. */
  getAPI(version: 1): SwitchyardAPI;
}

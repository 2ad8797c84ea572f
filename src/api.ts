/**
 * The public lane API: everything a lane plugin may import. Built-in lanes
 * under `plugins/` use only this module, exactly like third-party lanes.
 */
export type { LanePlugin, LaneRunInput, LaneTask, LaneAttempt, Disposable } from './core/lanes/lanePlugin';
export type { LaneManifestInput as LaneManifest } from './core/model/laneManifest';
export type { LaneEventInput as LaneEvent, Usage } from './core/model/laneEvent';
export type { LaneResultInput as LaneResult } from './core/model/laneResult';
export { LANE_API_VERSION } from './core/model/laneManifest';
export type { CallSpec, CallResult } from './core/journal/durableCalls';
export { CallFailedError } from './core/journal/durableCalls';
export { startProcessGroup, type ProcessGroup, type ProcessGroupSpec, type ProcessGroupExit } from './core/process/startProcessGroup';
export {
  runApiLane,
  runAgentLoop,
  ApiLaneSettings,
  API_LANE_SETTING_DOCS,
  parseLaneSettings,
  agentTools,
  ToolError,
  resolveInWorkspace,
  choosePrice,
  usageWithCost,
  ProviderError,
  type ApiLaneRun,
  type AgentLoopOptions,
  type AgentOutcome,
  type AgentTool,
  type ToolContext,
  type ToolOutput,
} from './core/agent';

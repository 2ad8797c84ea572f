import {
  API_LANE_SETTING_DOCS,
  ApiLaneSettings,
  LANE_API_VERSION,
  failureLeadLines,
  parseLaneSettings,
  runApiLane,
  startProcessGroup,
  type LaneToolkit,
} from '../api';

/**
 * The values of the public API as one object: part of what `getAPI(1)`
 * returns to an extension, and the argument a CLI lane module's default
 * export is called with, so a third-party lane needs no import from Switchyard.
 */
export const laneToolkit: LaneToolkit = Object.freeze({
  LANE_API_VERSION,
  startProcessGroup,
  runApiLane,
  ApiLaneSettings,
  API_LANE_SETTING_DOCS,
  parseLaneSettings,
  failureLeadLines,
});

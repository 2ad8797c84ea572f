import type { LanePlugin, LaneRunInput, LaneResult } from '../../src/api';
import { LANE_API_VERSION } from '../../src/api';

export function manifest(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    displayName: `Lane ${id}`,
    version: '1.0.0',
    apiVersion: LANE_API_VERSION,
    kind: 'api' as const,
    defaultRetryCap: 1,
    capabilities: { resume: 'none' as const, streaming: true, tools: false },
    ...extra,
  };
}

/** A lane whose behaviour is one function, for containment tests. */
export function scriptedLane(
  id: string,
  run: (input: LaneRunInput) => Promise<LaneResult>,
  extra: Record<string, unknown> = {},
): LanePlugin {
  return { manifest: manifest(id, extra), run };
}

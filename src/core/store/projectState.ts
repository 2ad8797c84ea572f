import { z } from 'zod';
import { Run } from '../model/run';
import { LaneId, Task } from '../model/task';

export const ProjectSettings = z
  .object({
    defaultLane: LaneId.default('command'),
    /** Per-lane maximum attempts; a lane without an entry uses its manifest's defaultRetryCap. */
    retryCaps: z.record(z.string(), z.number().int().min(1).max(20)).default({}),
    /** Per-lane settings, e.g. `{ "command": { "command": "./agent.sh" } }`. */
    laneSettings: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    /** How many runs the queue runner starts at once. */
    concurrency: z.number().int().min(1).max(32).default(2),
  })
  .strict();
export type ProjectSettings = z.infer<typeof ProjectSettings>;

export const STATE_VERSION = 1;

export const ProjectState = z
  .object({
    version: z.literal(STATE_VERSION),
    settings: ProjectSettings,
    nextTaskNumber: z.number().int().min(1),
    tasks: z.array(Task),
    runs: z.array(Run),
  })
  .strict();
export type ProjectState = z.infer<typeof ProjectState>;

export function emptyProjectState(): ProjectState {
  return { version: STATE_VERSION, settings: ProjectSettings.parse({}), nextTaskNumber: 1, tasks: [], runs: [] };
}

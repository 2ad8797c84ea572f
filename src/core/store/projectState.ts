import { z } from 'zod';
import { RoutingState } from '../model/routingState';
import { Run } from '../model/run';
import { LaneId, Task } from '../model/task';
import { BreakerState } from '../model/breakerState';
import { classed } from '../model/settingClass';
import { migrateSettings, orchestratorSettingsShape } from './orchestratorSettings';

export const ProjectSettings = z.preprocess(
  migrateSettings,
  z
    .object({
      defaultLane: classed(LaneId.default('command'), 'plain'),
      /** Per-lane maximum attempts; a lane without an entry uses its manifest's defaultRetryCap. */
      retryCaps: classed(z.record(z.string(), z.number().int().min(1).max(20)).default({}), 'plain'),
      /**
       * Per-lane settings, e.g. `{ "command": { "command": "./agent.sh" } }`: each lane's manifest declares the class
       * of each of its settings (`settings.<name>.class`).
       */
      laneSettings: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
      ...orchestratorSettingsShape,
      /**
       * `strict`: every journal event is durable before its call starts or its result is reported; `on`: group commit,
       * only `never` calls wait.
       */
      journalDurability: classed(z.enum(['strict', 'on']).default('strict'), 'plain'),
      /** How long a run's lease lasts without a heartbeat before another process may take the run over. */
      leaseMs: classed(z.number().int().min(200).default(30_000), 'plain'),
      /** Commands that print a secret, by secret name, e.g. `{ "ANTHROPIC_API_KEY": "pass show anthropic" }`. */
      secretCommands: classed(z.record(z.string(), z.string()).default({}), 'executes'),
      /** Lane modules the CLI loads (paths relative to the repository, or package names). */
      laneModules: classed(z.array(z.string()).default([]), 'executes'),
      /**
       * The dotted keys set on this machine (`switchyard config set --local`): they win over `.switchyard/config.json`
       * even when equal to the built-in default.
       */
      localOverrides: classed(z.array(z.string()).default([]), 'plain'),
      /** How many seconds an acceptance command may run before verification fails (VS Code's setting wins). */
      verifyTimeoutSeconds: classed(z.number().int().min(1).max(86_400).default(600), 'plain'),
    })
    .strict(),
);
export type ProjectSettings = z.infer<typeof ProjectSettings>;

export const STATE_VERSION = 1;

export const ProjectState = z
  .object({
    version: z.literal(STATE_VERSION),
    settings: ProjectSettings,
    nextTaskNumber: z.number().int().min(1),
    tasks: z.array(Task),
    runs: z.array(Run),
    /** Incremented by every write, so a reader can tell whether anything changed since it last looked. */
    revision: z.number().int().min(0).default(0),
    /**
     * Circuit breakers by lane (and `lane:tool`): open, half-open or closed, with the failure code that opened them.
     */
    breakers: z.record(z.string(), BreakerState).default({}),
    /** The active canary and every recorded routing change (who, when, why, before and after). */
    routing: RoutingState.default({ history: [] }),
  })
  .strict();
export type ProjectState = z.infer<typeof ProjectState>;

export function emptyProjectState(): ProjectState {
  return {
    version: STATE_VERSION,
    settings: ProjectSettings.parse({}),
    nextTaskNumber: 1,
    tasks: [],
    runs: [],
    revision: 0,
    breakers: {},
    routing: { history: [] },
  };
}

import { z } from 'zod';
import type { LaneManifest } from '../../src/api';

type SettingDoc = NonNullable<LaneManifest['settings']>[string];
type SettingType = NonNullable<SettingDoc['type']>;
type SettingClass = NonNullable<SettingDoc['class']>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

/**
 * The settings every CLI agent lane takes (`switchyard lanes set <lane> key=value`,
 * or VS Code's `switchyard.lanes`). Unknown keys are errors, so a typo is
 * reported instead of silently ignored.
 */
export const CliLaneSettings = z
  .object({
    /** The CLI's executable: an absolute path, or a name looked up on PATH. */
    binary: z.string().trim().min(1, '"binary" must not be empty').optional(),
    model: z.string().trim().min(1, '"model" must not be empty').optional(),
    /** Extra arguments appended to the CLI's own (e.g. permission flags). */
    extraArgs: z.array(z.string(), { error: '"extraArgs" must be a list of strings' }).default([]),
    /** Read by the host: the run is aborted after this many milliseconds. */
    timeoutMs: z.number({ error: '"timeoutMs" must be a number of milliseconds' }).int().positive().optional(),
    /**
     * Parent environment variables this project explicitly passes to the
     * lane (`AWS_PROFILE`, or a prefix such as `AWS_*`). Nothing else of the
     * parent environment beyond the allowlist reaches the CLI.
     */
    passEnv: z
      .array(z.string().regex(ENV_NAME, 'passEnv entries are variable names, optionally ending in * (e.g. AWS_*)'))
      .default([]),
  })
  .strict();
export type CliLaneSettings = z.infer<typeof CliLaneSettings>;

/** The manifest's documentation of these settings (shown by `switchyard lanes`). */
export function cliSettingsDocs(
  cli: string,
): Record<string, { description: string; type: SettingType; class: SettingClass }> {
  return {
    binary: {
      description: `Path to the ${cli} executable (default: looked up on PATH).`,
      type: 'string',
      class: 'executes',
    },
    model: {
      description: `Model passed to ${cli} with --model (default: the CLI's own default).`,
      type: 'string',
      class: 'plain',
    },
    // Arguments reach the CLI's own options: `--settings` alone can give it hooks, an API URL or its permissions.
    extraArgs: {
      description: `Extra arguments for ${cli}, as a JSON list, e.g. permission flags.`,
      type: 'string[]',
      class: 'executes',
    },
    timeoutMs: {
      description:
        "Abort the run after this many milliseconds (default 60 minutes); the CLI's whole process group is killed.",
      type: 'integer',
      class: 'plain',
    },
    passEnv: {
      description:
        'Names of parent environment variables to pass to the CLI (e.g. ["AWS_PROFILE"] or ["AWS_*"]); nothing else beyond the allowlist is inherited.',
      type: 'string[]',
      class: 'routes-credential',
    },
  };
}

import { z } from 'zod';
import { SettingClass } from './settingClass';
import { LaneId } from './task';

/** The lane API version this build of Switchyard speaks. */
export const LANE_API_VERSION = 1;
export const SUPPORTED_LANE_API_VERSIONS: readonly number[] = [1];

/**
 * USD per million tokens. The cache prices are optional: a lane with a provider rule (Anthropic's multipliers of the
 * input price) fills them in, otherwise a cached token costs the input price.
 */
export const PriceTable = z
  .object({
    inputPerMTokUsd: z.number().min(0),
    outputPerMTokUsd: z.number().min(0),
    /** A prompt-cache write (Anthropic's 5-minute cache). */
    cacheWritePerMTokUsd: z.number().min(0).optional(),
    /** A write to Anthropic's 1-hour cache. */
    cacheWrite1hPerMTokUsd: z.number().min(0).optional(),
    /** A prompt token read from the cache (OpenAI's "cached input"). */
    cacheReadPerMTokUsd: z.number().min(0).optional(),
  })
  .strict();

/** A setting's type: `string` keeps the text as typed; `string[]` and `object` are JSON. */
export const SettingType = z.enum(['string', 'number', 'integer', 'boolean', 'string[]', 'object']);
export type SettingType = z.infer<typeof SettingType>;

export const LaneManifest = z
  .object({
    id: LaneId,
    displayName: z.string().min(1),
    version: z.string().regex(/^\d+\.\d+\.\d+([-+].*)?$/, 'version must be semver, e.g. 1.0.0'),
    apiVersion: z.number().int(),
    kind: z.enum(['api', 'cli', 'command']),
    description: z.string().optional(),
    defaultRetryCap: z.number().int().min(1).max(20),
    defaultTimeoutMs: z
      .number()
      .int()
      .min(100)
      .default(30 * 60_000),
    price: PriceTable.optional(),
    /**
     * Prices of particular models, by model id (or id prefix: `claude-sonnet-4-5` also prices
     * `claude-sonnet-4-5-20250929`); `price` covers the rest.
     */
    modelPrices: z.record(z.string(), PriceTable).optional(),
    /** The context window in tokens of particular models, by id or id prefix (like `modelPrices`). */
    modelContextWindows: z.record(z.string(), z.number().int().positive()).optional(),
    /** The context window assumed for a model `modelContextWindows` does not list. */
    contextWindow: z.number().int().positive().optional(),
    capabilities: z
      .object({ resume: z.enum(['none', 'run', 'call']), streaming: z.boolean(), tools: z.boolean() })
      .strict(),
    /**
     * The lane's settings, documented for users. `type` is what
     * `switchyard lanes set` accepts (a setting without one takes JSON or
     * text); the plugin's own schema still checks the values when it runs.
     * `class` is what a value can make Switchyard do (see SettingClass): in an
     * untrusted workspace only `plain` settings from the repository apply; a
     * setting without a class is treated as one that executes.
     */
    settings: z
      .record(
        z.string(),
        z
          .object({
            description: z.string(),
            required: z.boolean().default(false),
            type: SettingType.optional(),
            class: SettingClass.optional(),
          })
          .strict(),
      )
      .default({}),
    requiredSecrets: z.array(z.string()).default([]),
    /**
     * Secrets the lane uses when they are set (a key a local server does not need); resolved and redacted like required
     * ones, never a reason to fail.
     */
    optionalSecrets: z.array(z.string()).default([]),
    /** Extra environment variable names this lane may read from the parent environment. */
    envAllowlist: z.array(z.string()).default([]),
  })
  .strict();
export type LaneManifest = z.infer<typeof LaneManifest>;
export type LaneManifestInput = z.input<typeof LaneManifest>;
export type PriceTable = z.infer<typeof PriceTable>;

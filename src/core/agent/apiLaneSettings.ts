import { z } from 'zod';
import { RetryPolicy } from '../retry/retryPolicy';
import { PriceTable, type SettingType } from '../model/laneManifest';
import type { SettingClass } from '../model/settingClass';
import { describeZodError } from '../model/zodIssues';

/** Settings every API lane understands (`switchyard lanes set <lane> key=value`, or VS Code's `switchyard.lanes`). */
export const ApiLaneSettings = z.object({
  model: z.string().trim().min(1).optional(),
  baseUrl: z.url({ error: 'baseUrl must be a URL, e.g. http://127.0.0.1:8000/v1' }).optional(),
  /** Output tokens the model may produce per call. */
  maxOutputTokens: z.number().int().min(1).default(8_192),
  /** Tool calls per attempt ("max executions"). */
  maxExecutions: z.number().int().min(1).default(50),
  /** Input + output tokens per attempt. */
  maxTokens: z.number().int().min(1).default(2_000_000),
  /** What the task may cost in USD across its runs. */
  maxTaskCostUsd: z.number().positive().default(5),
  /** Overrides the manifest's price for this project: USD per million input and output tokens. */
  price: PriceTable.optional(),
  /** Overrides the manifest's context window of the model, in tokens. */
  contextWindow: z.number().int().min(1_024).optional(),
  /**
   * `run_command` lines that are safe to run again after an interruption (e.g. the test command); others are never
   * re-run.
   */
  safeCommands: z.array(z.string().trim().min(1)).default([]),
  commandTimeoutMs: z
    .number()
    .int()
    .min(1_000)
    .default(10 * 60_000),
  /** A model stream that sends nothing for this long is cut and the call retried. */
  streamIdleTimeoutMs: z.number().int().min(100).default(120_000),
  /** Retry policy for failed model calls (429, 529, 5xx, a dropped stream); default 4 attempts from 1 s, doubling. */
  retry: z
    .object({
      maximumAttempts: z.number().int().min(0).optional(),
      initialIntervalMs: z.number().int().positive().optional(),
      backoffCoefficient: z.number().min(1).optional(),
      maximumIntervalMs: z.number().int().positive().optional(),
      jitter: z.number().min(0).max(1).optional(),
      maximumRetryAfterMs: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
  /** Extra instructions appended to the system prompt. */
  instructions: z.string().optional(),
  /** The run's timeout (read by Switchyard itself). */
  timeoutMs: z.number().int().positive().optional(),
});
export type ApiLaneSettings = z.infer<typeof ApiLaneSettings>;

/** Documentation of the common settings, for a lane manifest's `settings`. */
export const API_LANE_SETTING_DOCS: Record<
  string,
  { description: string; required?: boolean; type: SettingType; class: SettingClass }
> = {
  maxOutputTokens: { description: 'Output tokens per model call (default 8192).', type: 'integer', class: 'plain' },
  maxExecutions: {
    description:
      'Tool calls per attempt ("max executions", default 50); past it the run fails naming the cap and the last error.',
    type: 'integer',
    class: 'weakens-protection',
  },
  maxTokens: {
    description: 'Input + output tokens per attempt (default 2,000,000).',
    type: 'integer',
    class: 'weakens-protection',
  },
  maxTaskCostUsd: {
    description: 'Cost cap of the task in USD across its runs (default 5).',
    type: 'number',
    class: 'weakens-protection',
  },
  price: {
    description:
      'Overrides the lane\'s price table: {"inputPerMTokUsd": 3, "outputPerMTokUsd": 15} (USD per million tokens); optional cache prices "cacheWritePerMTokUsd", "cacheWrite1hPerMTokUsd", "cacheReadPerMTokUsd".',
    type: 'object',
    class: 'weakens-protection',
  },
  contextWindow: {
    description:
      "The model's context window in tokens (default: the lane's table, else 200000 for Claude, 32768 for other models); the conversation is compacted before a request passes ~80% of it.",
    type: 'integer',
    class: 'plain',
  },
  safeCommands: {
    description:
      'run_command lines that are safe to run again after an interruption, e.g. ["npm test"]; others are never re-run.',
    type: 'string[]',
    class: 'executes',
  },
  commandTimeoutMs: {
    description: 'Longest a run_command may take (default 10 minutes).',
    type: 'integer',
    class: 'plain',
  },
  streamIdleTimeoutMs: {
    description: 'A model stream that sends nothing for this long is cut and the call retried (default 120000).',
    type: 'integer',
    class: 'plain',
  },
  retry: {
    description:
      'Retry policy for failed model calls: {"maximumAttempts": 4, "initialIntervalMs": 1000, "backoffCoefficient": 2, …}.',
    type: 'object',
    class: 'plain',
  },
  instructions: { description: 'Extra instructions appended to the system prompt.', type: 'string', class: 'plain' },
  timeoutMs: {
    description: 'Abort the run after this many milliseconds (default 30 minutes).',
    type: 'integer',
    class: 'plain',
  },
};

const MODEL_CALL_RETRY_DEFAULTS = { maximumAttempts: 4 };

export function modelCallRetryPolicy(settings: ApiLaneSettings): RetryPolicy {
  const own = Object.fromEntries(Object.entries(settings.retry ?? {}).filter(([, v]) => v !== undefined));
  return RetryPolicy.parse({ ...MODEL_CALL_RETRY_DEFAULTS, ...own });
}

/** Parses a lane's settings with its schema; an unknown or wrong field is a misconfiguration that names the field. */
export function parseLaneSettings<S extends z.ZodType>(
  laneId: string,
  schema: S,
  raw: unknown,
): { ok: true; settings: z.infer<S> } | { ok: false; reason: string } {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, settings: parsed.data };
  return {
    ok: false,
    reason: `lane "${laneId}" is misconfigured: ${describeZodError(parsed.error)} (set it with: switchyard lanes set ${laneId} key=value, or VS Code's switchyard.lanes)`,
  };
}

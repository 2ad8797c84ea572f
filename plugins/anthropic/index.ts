import { createAnthropic } from '@ai-sdk/anthropic';
import { z } from 'zod';
import {
  ApiLaneSettings,
  parseLaneSettings,
  runApiLane,
  type LanePlugin,
  type LaneResult,
  type LaneRunInput,
} from '../../src/api';
import {
  ANTHROPIC_API_URL,
  ANTHROPIC_CACHE_MULTIPLIERS,
  ANTHROPIC_DEFAULT_MODEL,
  anthropicLaneManifest,
} from './manifest';

const Settings = ApiLaneSettings.extend({
  model: z.string().trim().min(1).default(ANTHROPIC_DEFAULT_MODEL),
  headers: z.record(z.string(), z.string()).optional(),
  /** Prompt-cache breakpoints: the 5-minute cache (default), the 1-hour cache, or none. */
  promptCache: z.enum(['5m', '1h', 'off'], { error: 'promptCache must be "5m", "1h" or "off"' }).default('5m'),
}).strict();

/** The `anthropic` lane: the agent loop over the Messages API (via the AI SDK's Anthropic provider). */
export function createAnthropicLane(): LanePlugin {
  return { manifest: anthropicLaneManifest, run: runAnthropic };
}

async function runAnthropic(input: LaneRunInput): Promise<LaneResult> {
  const parsed = parseLaneSettings('anthropic', Settings, input.settings);
  if (!parsed.ok) return { status: 'failed', failureReason: parsed.reason, failureCode: 'lane-misconfigured' };
  const settings = parsed.settings;
  const provider = createAnthropic({
    apiKey: input.secrets.ANTHROPIC_API_KEY,
    // Always explicit, so ANTHROPIC_BASE_URL in the parent environment cannot redirect the key.
    baseURL: settings.baseUrl ?? ANTHROPIC_API_URL,
    headers: settings.headers,
  });
  return runApiLane(input, {
    manifest: anthropicLaneManifest,
    callName: 'anthropic.messages',
    modelId: settings.model,
    model: provider.messages(settings.model),
    settings,
    promptCache: settings.promptCache,
    cacheMultipliers: ANTHROPIC_CACHE_MULTIPLIERS,
  });
}

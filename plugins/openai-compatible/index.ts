import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';
import {
  ApiLaneSettings,
  parseLaneSettings,
  runApiLane,
  type LanePlugin,
  type LaneResult,
  type LaneRunInput,
} from '../../src/api';
import { OPENAI_COMPATIBLE_KEY, openaiCompatibleLaneManifest } from './manifest';

const Settings = ApiLaneSettings.extend({
  baseUrl: z.url({
    error: 'the openai-compatible lane needs "baseUrl", the server\'s base URL, e.g. http://127.0.0.1:8000/v1',
  }),
  model: z.string({ error: 'the openai-compatible lane needs "model", the model id the server knows' }).trim().min(1),
  headers: z.record(z.string(), z.string()).optional(),
}).strict();

/** The `openai-compatible` lane: the agent loop over chat completions (via the AI SDK's OpenAI-compatible provider). */
export function createOpenAICompatibleLane(): LanePlugin {
  return { manifest: openaiCompatibleLaneManifest, run: runOpenAICompatible };
}

async function runOpenAICompatible(input: LaneRunInput): Promise<LaneResult> {
  const parsed = parseLaneSettings('openai-compatible', Settings, input.settings);
  if (!parsed.ok) return { status: 'failed', failureReason: parsed.reason, failureCode: 'lane-misconfigured' };
  const settings = parsed.settings;
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: settings.baseUrl,
    apiKey: input.secrets[OPENAI_COMPATIBLE_KEY],
    headers: settings.headers,
    // Asks for the usage chunk (stream_options.include_usage), so tokens and cost are counted.
    includeUsage: true,
  });
  return runApiLane(input, {
    manifest: openaiCompatibleLaneManifest,
    callName: 'openai-compatible.chat',
    modelId: settings.model,
    model: provider.chatModel(settings.model),
    settings,
  });
}

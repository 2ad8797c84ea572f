import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';
import {
  ApiLaneSettings,
  parseLaneSettings,
  runApiLane,
  type LanePlugin,
  type LaneReadiness,
  type LaneReadinessInput,
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
  return { manifest: openaiCompatibleLaneManifest, run: runOpenAICompatible, readiness: serverReadiness };
}

/**
 * Ready when the settings parse and the server answers at all (any HTTP status: a 401 is the key's business, seen
 * when a run starts); a refused or timed-out connection is not ready, naming the URL.
 */
async function serverReadiness(input: LaneReadinessInput): Promise<LaneReadiness> {
  const parsed = parseLaneSettings('openai-compatible', Settings, input.settings);
  if (!parsed.ok) {
    const setting = /"(\w+)"/.exec(parsed.reason)?.[1] ?? 'baseUrl';
    return { ready: false, reason: parsed.reason, fix: { kind: 'setting', setting } };
  }
  const url = `${parsed.settings.baseUrl.replace(/\/+$/, '')}/models`;
  try {
    await fetch(url, { method: 'GET', signal: input.signal, headers: parsed.settings.headers });
    return { ready: true, detail: parsed.settings.baseUrl };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    return {
      ready: false,
      reason: `lane "openai-compatible" cannot reach its server at ${parsed.settings.baseUrl} (${why}): start the server or fix the "baseUrl" setting`,
      fix: { kind: 'setting', setting: 'baseUrl' },
    };
  }
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

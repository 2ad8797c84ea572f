/**
 * A third-party API lane: Google Gemini through Gemini's OpenAI-compatible
 * endpoint, on Switchyard's own agent loop (tools, durable calls, budgets,
 * retries). It imports nothing from Switchyard at run time: the toolkit
 * arrives as the argument. For the native Gemini API, build the model with
 * `createGoogleGenerativeAI({ apiKey }).languageModel(id)` from @ai-sdk/google
 * instead (Bedrock: @ai-sdk/amazon-bedrock); the rest stays the same.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';
import type { LaneManifest, LanePlugin, LaneToolkit } from '../../switchyard';

const GEMINI_URL = 'https://generativelanguage.googleapis.com/v1beta/openai';
const MTOK = (input: number, output: number) => ({ inputPerMTokUsd: input, outputPerMTokUsd: output });

export default function geminiLane(api: LaneToolkit): LanePlugin {
  const manifest: LaneManifest = {
    id: 'gemini',
    displayName: 'Gemini (example lane)',
    version: '0.1.0',
    apiVersion: api.LANE_API_VERSION,
    kind: 'api',
    defaultRetryCap: 2,
    // Google's list prices, USD per million tokens (prompts up to 200k tokens).
    modelPrices: { 'gemini-2.5-flash': MTOK(0.3, 2.5), 'gemini-2.5-pro': MTOK(1.25, 10) },
    capabilities: { resume: 'call', streaming: true, tools: true },
    settings: {
      model: { description: 'Model id (default gemini-2.5-flash).', type: 'string', class: 'plain' },
      ...api.API_LANE_SETTING_DOCS,
    },
    requiredSecrets: ['GEMINI_API_KEY'],
  };
  const Settings = api.ApiLaneSettings.extend({ model: z.string().trim().min(1).default('gemini-2.5-flash') }).strict();
  return {
    manifest,
    async run(input) {
      const parsed = api.parseLaneSettings(manifest.id, Settings, input.settings);
      if (!parsed.ok) return { status: 'failed', failureReason: parsed.reason, failureCode: 'lane-misconfigured' };
      const { settings } = parsed;
      const gemini = createOpenAICompatible({
        name: 'gemini',
        baseURL: settings.baseUrl ?? GEMINI_URL,
        apiKey: input.secrets.GEMINI_API_KEY,
        includeUsage: true,
      });
      return api.runApiLane(input, {
        manifest,
        callName: 'gemini.chat',
        modelId: settings.model,
        model: gemini.chatModel(settings.model),
        settings,
      });
    },
  };
}

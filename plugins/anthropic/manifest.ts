import { API_LANE_SETTING_DOCS, LANE_API_VERSION, type LaneManifest } from '../../src/api';

export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';
export const ANTHROPIC_API_URL = 'https://api.anthropic.com/v1';

/**
 * USD per million tokens (Anthropic's list prices); an id prefix covers dated ids. A project overrides them with the
 * `price` setting.
 */
/**
 * Anthropic's prompt-cache prices relative to the input price (https://docs.claude.com/en/docs/build-with-claude/
 * prompt-caching#pricing): a 5-minute cache write 1.25×, a 1-hour write 2×, a read 0.1×. A price table without cache
 * prices (the ones below, or the project's "price") gets them from these.
 */
export const ANTHROPIC_CACHE_MULTIPLIERS = { write5m: 1.25, write1h: 2, read: 0.1 };

const MTOK = (input: number, output: number) => ({ inputPerMTokUsd: input, outputPerMTokUsd: output });

export const anthropicLaneManifest: LaneManifest = {
  id: 'anthropic',
  displayName: 'Anthropic (Claude)',
  version: '1.0.0',
  apiVersion: LANE_API_VERSION,
  kind: 'api',
  description:
    "Switchyard's own agent loop over Anthropic's Messages API (tool use, streaming); resumes mid-turn from the journal.",
  defaultRetryCap: 2,
  defaultTimeoutMs: 30 * 60_000,
  price: MTOK(3, 15),
  modelPrices: {
    'claude-sonnet-4': MTOK(3, 15),
    'claude-sonnet-4-5': MTOK(3, 15),
    'claude-haiku-4-5': MTOK(1, 5),
    'claude-opus-4': MTOK(15, 75),
    'claude-opus-4-1': MTOK(15, 75),
    'claude-opus-4-5': MTOK(5, 25),
    'claude-3-5-haiku': MTOK(0.8, 4),
    'claude-3-haiku': MTOK(0.25, 1.25),
  },
  // Every current Claude model has a 200k-token window (a larger one is a beta); a new model gets the same, with a
  // warning.
  contextWindow: 200_000,
  modelContextWindows: { 'claude-': 200_000 },
  capabilities: { resume: 'call', streaming: true, tools: true },
  settings: {
    model: { description: `Model id (default ${ANTHROPIC_DEFAULT_MODEL}).`, type: 'string', class: 'plain' },
    baseUrl: {
      description: `API base URL including /v1 (default ${ANTHROPIC_API_URL}); for a proxy or gateway.`,
      type: 'string',
      class: 'routes-credential',
    },
    promptCache: {
      description:
        'Prompt caching: "5m" (default) marks cache breakpoints on the tools, the system prompt and the latest messages (Anthropic\'s 5-minute cache: writes 1.25× the input price, reads 0.1×); "1h" uses the 1-hour cache (writes 2×); "off" marks none.',
      type: 'string',
      class: 'plain',
    },
    headers: {
      description:
        'Extra HTTP headers, e.g. {"anthropic-beta": "…"}. Never put the API key here: set ANTHROPIC_API_KEY.',
      type: 'object',
      class: 'routes-credential',
    },
    ...API_LANE_SETTING_DOCS,
  },
  requiredSecrets: ['ANTHROPIC_API_KEY'],
};

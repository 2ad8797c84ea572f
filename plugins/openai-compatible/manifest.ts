import { API_LANE_SETTING_DOCS, LANE_API_VERSION, type LaneManifest } from '../../src/api';

export const OPENAI_COMPATIBLE_KEY = 'OPENAI_COMPATIBLE_API_KEY';

export const openaiCompatibleLaneManifest: LaneManifest = {
  id: 'openai-compatible',
  displayName: 'OpenAI-compatible (vLLM, Ollama, LM Studio, OpenRouter)',
  version: '1.0.0',
  apiVersion: LANE_API_VERSION,
  kind: 'api',
  description:
    "Switchyard's own agent loop over any chat-completions server with tool calls and streaming; resumes mid-turn from the journal.",
  defaultRetryCap: 2,
  defaultTimeoutMs: 30 * 60_000,
  // A local model costs nothing per token; for a paid endpoint set the `price` setting.
  capabilities: { resume: 'call', streaming: true, tools: true },
  settings: {
    baseUrl: {
      description:
        "The server's OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (vLLM), http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:1234/v1 (LM Studio), https://openrouter.ai/api/v1.",
      required: true,
      type: 'string',
      class: 'routes-credential',
    },
    model: {
      description: 'The model id the server knows, e.g. Qwen/Qwen2.5-Coder-32B-Instruct or qwen2.5-coder:14b.',
      required: true,
      type: 'string',
      class: 'plain',
    },
    headers: {
      description: `Extra HTTP headers, e.g. {"HTTP-Referer": "…"} for OpenRouter. Put a key in ${OPENAI_COMPATIBLE_KEY}, not here.`,
      type: 'object',
      class: 'routes-credential',
    },
    ...API_LANE_SETTING_DOCS,
  },
  // Local servers need no key; when it is set (SecretStorage, environment or a secret command) it is sent as a bearer
  // token and redacted everywhere.
  optionalSecrets: [OPENAI_COMPATIBLE_KEY],
};

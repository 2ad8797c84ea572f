import { z } from 'zod';

/**
 * Claude Code's `claude -p --output-format stream-json --verbose` stream: one
 * JSON message a line. Sources:
 * - the message types of the Claude Agent SDK, which the CLI writes
 *   (`SDKMessage` in sdk.d.ts of npm @anthropic-ai/claude-agent-sdk 0.3.332:
 *   SDKSystemMessage, SDKAssistantMessage, SDKUserMessage, SDKResultSuccess,
 *   SDKResultError);
 * - https://code.claude.com/docs/en/headless ("Stream responses", the
 *   `system/api_retry` event) and
 *   https://docs.anthropic.com/en/docs/claude-code/sdk/sdk-headless
 *   (the `init` system message first, then user and assistant messages, then
 *   the `result`).
 * - the real CLI, 2.1.332 (npm @anthropic-ai/claude-code), run against a local
 *   Messages server: its API error messages (`model: "<synthetic>"`,
 *   `is_api_error_message`, `api_error_status`), the result's
 *   `api_error_status`, `permission_denials` and `modelUsage`, and the
 *   `system/permission_denied` message; samples in
 *   test/fixtures/cli-streams/claude/real-2.1.332/.
 * - `stream_event` (with `--include-partial-messages`): the raw Messages API
 *   stream events of each call, tagged with the call's `api_message_id`; its
 *   `message_delta` carries the call's final `output_tokens` (2.1.332: an
 *   `assistant` message's usage is the one of `message_start`,
 *   `output_tokens: 1`).
 * Objects are loose: the CLI adds fields in every release; we read the ones
 * we need and keep the rest. Messages of other types (rate_limit_event, …)
 * fail this schema and are kept verbatim as log events.
 *
 * Note the `message` field: here it is an object (an Anthropic API message
 * with a `content` array), where Codex's `error` event has a string.
 */
const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const ToolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
const ThinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: z.string() });
const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.unknown().optional(),
  is_error: z.boolean().nullish(),
});
const OtherBlock = z.looseObject({ type: z.string() });
export const ContentBlock = z.union([TextBlock, ToolUseBlock, ThinkingBlock, ToolResultBlock, OtherBlock]);
export type ContentBlock = z.infer<typeof ContentBlock>;

/** Anthropic API usage. `input_tokens` excludes the cached prompt, which is counted separately. */
export const ClaudeUsage = z.looseObject({
  input_tokens: z.number().default(0),
  output_tokens: z.number().default(0),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});

/** One model's totals in the result's `modelUsage` (camelCase, cost included). */
export const ModelUsage = z.looseObject({
  inputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  cacheReadInputTokens: z.number().nullish(),
  cacheCreationInputTokens: z.number().nullish(),
  costUSD: z.number().nullish(),
});

export const ClaudeStreamEvent = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('system'),
    subtype: z.string(),
    session_id: z.string().optional(),
    model: z.string().optional(),
    claude_code_version: z.string().optional(),
    /** `api_retry`: the CLI retries a failed API call (headless docs, "Stream responses"). */
    attempt: z.number().optional(),
    max_retries: z.number().optional(),
    retry_delay_ms: z.number().optional(),
    error_status: z.number().nullish(),
    error: z.string().optional(),
    /** `permission_denied` (2.1.x): the tool call the permission settings refused, and why. */
    tool_name: z.string().optional().catch(undefined),
    tool_use_id: z.string().optional().catch(undefined),
  }),
  z.looseObject({
    type: z.literal('assistant'),
    /** `model: "<synthetic>"`: written by the CLI itself, not the model (an API error, an interruption). */
    message: z.looseObject({
      id: z.string().optional(),
      model: z.string().optional(),
      content: z.array(ContentBlock),
      usage: ClaudeUsage.nullish().catch(undefined),
    }),
    parent_tool_use_id: z.string().nullish(),
    /**
     * Set when the API call failed (`authentication_failed`, `rate_limit`, `server_error`, …); the message then carries
     * the error text.
     */
    error: z.string().optional(),
    /** 2.1.x, on an API error message: `is_api_error_message: true`, the HTTP status and the API's error type. */
    is_api_error_message: z.boolean().optional().catch(undefined),
    api_error_status: z.number().nullish().catch(undefined),
    api_error_type: z.string().nullish().catch(undefined),
    /** …or, for a failed connection, the CLI's own kind (`connection_failed`). */
    api_error: z.string().nullish().catch(undefined),
    session_id: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('stream_event'),
    /** A Messages API stream event: `message_start`, …, `message_delta` (its `usage`: the call's final output), … */
    event: z.looseObject({ type: z.string(), usage: ClaudeUsage.nullish().catch(undefined) }),
    /** The id of the API message (the call) the event belongs to. */
    api_message_id: z.string().optional(),
    session_id: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('user'),
    message: z.looseObject({ content: z.union([z.string(), z.array(ContentBlock)]) }),
    parent_tool_use_id: z.string().nullish(),
    session_id: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('result'),
    /**
     * `success`, or `error_during_execution`, `error_max_turns`, `error_max_budget_usd`, …; a failed API call is a
     * `success` with `is_error: true`.
     */
    subtype: z.string(),
    is_error: z.boolean().default(false),
    result: z.string().optional(),
    errors: z.array(z.string()).optional(),
    total_cost_usd: z.number().optional(),
    usage: ClaudeUsage.optional().catch(undefined),
    /**
     * Totals per model over every API call of the process; `usage` may be the last call's only (e.g. on
     * `error_during_execution`).
     */
    modelUsage: z.record(z.string(), ModelUsage).optional().catch(undefined),
    /** The HTTP status of the API error that ended the run (2.1.x), else null. */
    api_error_status: z.number().nullish().catch(undefined),
    /** The tool calls the permission settings refused. */
    permission_denials: z
      .array(z.looseObject({ tool_name: z.string(), tool_use_id: z.string().optional() }))
      .optional()
      .catch(undefined),
    num_turns: z.number().optional(),
    session_id: z.string().optional(),
  }),
]);
export type ClaudeStreamEvent = z.infer<typeof ClaudeStreamEvent>;
export type ClaudeUsage = z.infer<typeof ClaudeUsage>;
export type ModelUsage = z.infer<typeof ModelUsage>;

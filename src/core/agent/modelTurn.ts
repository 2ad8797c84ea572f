import {
  jsonSchema,
  streamText,
  tool,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import { z } from 'zod';
import { Usage } from '../model/laneEvent';
import type { PriceTable } from '../model/laneManifest';
import type { AgentTool } from './agentTool';
import { usageWithCost, type TokenCounts } from './pricing';
import { ProviderError, isAbort, toProviderError } from './providerError';

// The library would print its warnings to the console (the CLI's stderr); they go to the run's events instead.
(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS ??= false;

const TurnPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).strict(),
  /**
   * `inputError` is set when the arguments were not valid JSON (or named no known tool): the model is told, nothing
   * runs.
   */
  z
    .object({
      type: z.literal('tool-call'),
      toolCallId: z.string(),
      toolName: z.string(),
      input: z.unknown(),
      inputError: z.string().optional(),
    })
    .strict(),
]);
export type TurnPart = z.infer<typeof TurnPart>;

/**
 * One model response, as the journal keeps it: the durable call's output (checked again when a resume reads it back).
 */
export const ModelTurn = z.object({ content: z.array(TurnPart), finishReason: z.string(), usage: Usage }).strict();
export type ModelTurn = z.infer<typeof ModelTurn>;

export interface ModelTurnRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: readonly AgentTool[];
  maxOutputTokens: number;
  /** A stream that sends nothing for this long is cut (and the call retried). */
  idleTimeoutMs: number;
  price: PriceTable | undefined;
  /**
   * Anthropic prompt-cache breakpoints: on the last tool and the system prompt (the fixed prefix) and on the messages
   * at these indexes (the latest message and the previous request's latest), at most 4 in all.
   */
  cache?: { ttl: '5m' | '1h'; messages: readonly number[] };
  signal: AbortSignal;
  onText(text: string): void;
  onWarning(message: string): void;
}

/**
 * One streamed model call through the provider library, with the library's
 * own retries off (Switchyard's retry policy decides). Text is reported as
 * each block completes; a stream that fails part-way throws a ProviderError
 * (the whole call is then retried or fails the run).
 */
export async function streamModelTurn(request: ModelTurnRequest): Promise<ModelTurn> {
  // The library adds an abort listener to the signal it is given and never removes it; given the run's
  // signal, every call would leave one behind (MaxListenersExceededWarning after 11 calls). It gets a
  // signal of this call only, linked to the run's by one listener that is removed when the call ends.
  const call = new AbortController();
  const forward = (): void => call.abort(request.signal.reason);
  if (request.signal.aborted) forward();
  else request.signal.addEventListener('abort', forward, { once: true });
  try {
    return await streamTurn(request, call.signal);
  } finally {
    request.signal.removeEventListener('abort', forward);
  }
}

async function streamTurn(request: ModelTurnRequest, signal: AbortSignal): Promise<ModelTurn> {
  const marker = request.cache && {
    anthropic: { cacheControl: { type: 'ephemeral', ...(request.cache.ttl === '1h' ? { ttl: '1h' } : {}) } },
  };
  const marked = new Set(request.cache?.messages ?? []);
  const result = streamText({
    model: request.model,
    system: marker ? { role: 'system', content: request.system, providerOptions: marker } : request.system,
    messages: marker
      ? request.messages.map((m, i) => (marked.has(i) ? { ...m, providerOptions: marker } : m))
      : request.messages,
    tools: toolSet(request.tools, marker),
    maxOutputTokens: request.maxOutputTokens,
    maxRetries: 0,
    abortSignal: signal,
    timeout: { chunkMs: request.idleTimeoutMs },
    onError: () => undefined,
  });
  const content: TurnPart[] = [];
  const texts = new Map<string, string>();
  let finishReason = 'unknown';
  let tokens: TokenCounts = { input: 0, output: 0 };
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        texts.set(part.id, (texts.get(part.id) ?? '') + part.text);
        break;
      case 'text-end': {
        const text = texts.get(part.id) ?? '';
        texts.delete(part.id);
        if (text) {
          content.push({ type: 'text', text });
          request.onText(text);
        }
        break;
      }
      case 'tool-call':
        content.push(toolCallPart(part));
        break;
      case 'start-step':
        for (const w of part.warnings) request.onWarning(`model warning: ${JSON.stringify(w)}`);
        break;
      case 'finish':
        finishReason = part.finishReason;
        tokens = tokenCounts(part.totalUsage);
        break;
      case 'error':
        throw isAbort(part.error) ? stopped(request) : toProviderError(part.error);
      case 'abort':
        throw stopped(request);
    }
  }
  // Text whose block never closed (a provider that skips text-end) is kept too.
  for (const text of texts.values()) if (text) content.push({ type: 'text', text });
  return { content, finishReason, usage: usageWithCost(tokens, request.price, request.cache?.ttl) };
}

/**
 * The library's usage as token counts: the whole prompt, and the cache reads and writes when the provider reported
 * them (Anthropic's `cache_read_input_tokens` / `cache_creation_input_tokens`, an OpenAI-compatible server's
 * `prompt_tokens_details.cached_tokens`).
 */
function tokenCounts(usage: LanguageModelUsage): TokenCounts {
  const details = usage.inputTokenDetails;
  return {
    input: usage.inputTokens ?? 0,
    output: usage.outputTokens ?? 0,
    ...(details?.cacheReadTokens !== undefined ? { cacheRead: details.cacheReadTokens } : {}),
    ...(details?.cacheWriteTokens !== undefined ? { cacheWrite: details.cacheWriteTokens } : {}),
  };
}

/** The run's own abort passes through; any other abort is the library's stall timer. */
function stopped(request: ModelTurnRequest): unknown {
  if (request.signal.aborted) return request.signal.reason;
  return new ProviderError(
    `stream timed out: nothing from the server for ${request.idleTimeoutMs} ms`,
    undefined,
    {},
    'ETIMEDOUT',
  );
}

function toolCallPart(part: {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean;
  error?: unknown;
}): TurnPart {
  if (!part.invalid)
    return { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
  const why = part.error instanceof Error ? part.error.message : String(part.error);
  return {
    type: 'tool-call',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    input: part.input,
    inputError: why,
  };
}

/** The tools' names, descriptions and input schemas, as sent (for the estimate of a request's size). */
export function toolDefinitions(tools: readonly AgentTool[]): unknown[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: z.toJSONSchema(t.inputSchema, { io: 'input' }),
  }));
}

/**
 * The tools as the library sends them: JSON Schema from our zod schemas, no `execute` (the agent loop runs them
 * durably).
 */
function toolSet(tools: readonly AgentTool[], marker: ModelMessage['providerOptions']): ToolSet {
  const set: ToolSet = {};
  for (const [i, t] of tools.entries()) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(t.inputSchema, { io: 'input' }) as Record<string, unknown>;
    const last = marker && i === tools.length - 1;
    set[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(schema),
      ...(last ? { providerOptions: marker } : {}),
    });
  }
  return set;
}

import { z } from 'zod';

/**
 * Cursor's headless agent CLI, `cursor-agent -p --output-format stream-json`
 * (NDJSON, one event a line). Sources:
 * - https://cursor.com/docs/cli/reference/output-format (system init,
 *   user, assistant, tool_call started/completed, the terminal `result`; on
 *   failure a non-zero exit, the error on stderr, and possibly no result);
 * - lines captured from a real authenticated run (agent 2026.08.11-e8db854)
 *   in github.com/ZhengyiLuo/AgentsServer test_cursor_agent_client.py
 *   (thinking delta/completed, interaction_query, `usage` with camelCase
 *   `inputTokens`/`outputTokens` on the result, tool results shaped
 *   `{success: …}` or `{rejected: …}`);
 * - github.com/reifying/cursor-hack docs/stream-json-events.md (the event
 *   lifecycle, `model_call_id`, tool call kinds such as lsToolCall and
 *   shellToolCall).
 * A tool call is an object with one key naming the tool (`readToolCall`,
 * `editToolCall`, `shellToolCall`, …) holding `args` and, when completed,
 * `result`. Events of other types are kept verbatim as log events.
 */
const ToolCall = z.record(z.string(), z.looseObject({ args: z.unknown().optional(), result: z.unknown().optional() }));

export const CursorStreamEvent = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('system'),
    subtype: z.string(),
    session_id: z.string().optional(),
    model: z.string().optional(),
  }),
  z.looseObject({ type: z.literal('user'), message: z.unknown(), session_id: z.string().optional() }),
  z.looseObject({
    type: z.literal('assistant'),
    message: z.looseObject({ content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })) }),
    model_call_id: z.string().optional(),
    session_id: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('thinking'),
    subtype: z.string(),
    text: z.string().optional(),
    session_id: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('tool_call'),
    subtype: z.enum(['started', 'completed']),
    call_id: z.string(),
    tool_call: ToolCall,
    session_id: z.string().optional(),
  }),
  z.looseObject({ type: z.literal('interaction_query'), subtype: z.string().optional() }),
  z.looseObject({
    type: z.literal('result'),
    subtype: z.string(),
    is_error: z.boolean().default(false),
    result: z.string().optional(),
    session_id: z.string().optional(),
    usage: z.looseObject({ inputTokens: z.number().default(0), outputTokens: z.number().default(0) }).optional(),
  }),
]);
export type CursorStreamEvent = z.infer<typeof CursorStreamEvent>;

import { z } from 'zod';

/**
 * Codex's `codex exec --json` stream (JSONL, one `ThreadEvent` a line).
 * Sources, in github.com/openai/codex:
 * - codex-rs/exec/src/exec_events.rs (ThreadEvent, ThreadItem and its
 *   details: the field names below are serde's);
 * - docs/exec.md ("JSON output mode", with a sample stream; "Resuming
 *   non-interactive sessions": `codex exec resume <SESSION_ID>`).
 * Items carry `id` and `type` (agent_message, reasoning, command_execution,
 * file_change, mcp_tool_call, web_search, todo_list, error, …). Events of
 * other types fail this schema and are kept verbatim as log events.
 *
 * Note the `message` field: in `error` events (and error items) it is a
 * string, where Claude Code's `message` is an object.
 */
export const CodexItem = z.looseObject({
  id: z.string(),
  type: z.string(),
  text: z.string().optional(),
  command: z.string().optional(),
  aggregated_output: z.string().optional(),
  exit_code: z.number().nullish(),
  status: z.string().optional(),
  changes: z.array(z.looseObject({ path: z.string(), kind: z.string() })).optional(),
  server: z.string().optional(),
  tool: z.string().optional(),
  arguments: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.looseObject({ message: z.string() }).nullish(),
  query: z.string().optional(),
  items: z.array(z.looseObject({ text: z.string(), completed: z.boolean() })).optional(),
  message: z.string().optional(),
});
export type CodexItem = z.infer<typeof CodexItem>;

/** Token usage of one turn. `input_tokens` includes the cached ones (`cached_input_tokens` is a part of it). */
export const CodexUsage = z.looseObject({
  input_tokens: z.number().default(0),
  cached_input_tokens: z.number().default(0),
  output_tokens: z.number().default(0),
});

export const CodexStreamEvent = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('thread.started'), thread_id: z.string() }),
  z.looseObject({ type: z.literal('turn.started') }),
  z.looseObject({ type: z.literal('turn.completed'), usage: CodexUsage }),
  z.looseObject({ type: z.literal('turn.failed'), error: z.looseObject({ message: z.string() }) }),
  z.looseObject({ type: z.literal('item.started'), item: CodexItem }),
  z.looseObject({ type: z.literal('item.updated'), item: CodexItem }),
  z.looseObject({ type: z.literal('item.completed'), item: CodexItem }),
  z.looseObject({ type: z.literal('error'), message: z.string() }),
]);
export type CodexStreamEvent = z.infer<typeof CodexStreamEvent>;

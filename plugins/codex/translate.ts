import type { LaneEvent } from '../../src/api';
import { newOutcome, type StreamTranslator } from '../shared/streamTranslator';
import type { CodexItem, CodexStreamEvent } from './streamSchema';

/**
 * Codex `exec --json` → normalized events:
 * - `thread.started` → `session` (the thread id is what `codex exec resume` takes);
 * - items: `agent_message` → `text`; `reasoning` → `progress`;
 *   `command_execution`, `file_change`, `mcp_tool_call`, `web_search` →
 *   `tool-call` when started (or when first seen completed) and
 *   `tool-result` when completed; `todo_list` → `progress`; an `error` item
 *   (non-fatal) → a stderr `log` line; other item types → `log`, verbatim;
 * - `turn.completed` → `usage` (Codex reports no cost; on a resumed thread
 *   it is the thread's running total, which the lane turns into this
 *   process's share, see threadUsage.ts); `turn.failed` and
 *   `error` events → the CLI's error, their string `message` kept whole.
 * `error` events are not fatal by themselves (Codex reports reconnects this
 * way); the turn's end decides. Our `inputTokens` is Codex's `input_tokens`,
 * which already includes `cached_input_tokens`.
 */
export function codexTranslator(): StreamTranslator<CodexStreamEvent> {
  const outcome = newOutcome();
  const called = new Set<string>();
  let turnFailed = false;

  const toolCall = (item: CodexItem): LaneEvent[] => {
    if (called.has(item.id)) return [];
    called.add(item.id);
    outcome.workEvents += 1;
    return [{ type: 'tool-call', callId: item.id, name: toolName(item), input: toolInput(item) }];
  };

  const started = (item: CodexItem): LaneEvent[] => {
    if (item.type === 'todo_list') return [todo(item)];
    if (['command_execution', 'mcp_tool_call', 'web_search', 'file_change'].includes(item.type)) return toolCall(item);
    return [];
  };

  const completed = (item: CodexItem): LaneEvent[] => {
    switch (item.type) {
      case 'agent_message':
        outcome.workEvents += 1;
        outcome.resultText = item.text;
        return [{ type: 'text', text: item.text ?? '' }];
      case 'reasoning':
        return item.text ? [{ type: 'progress', message: item.text }] : [];
      case 'todo_list':
        return [todo(item)];
      case 'error':
        return [{ type: 'log', stream: 'stderr', line: item.message ?? JSON.stringify(item) }];
      case 'command_execution':
        return [
          ...toolCall(item),
          {
            type: 'tool-result',
            callId: item.id,
            output: { exit_code: item.exit_code ?? null, output: item.aggregated_output ?? '', status: item.status },
            isError: item.status === 'failed' || item.status === 'declined' || (item.exit_code ?? 0) !== 0,
          },
        ];
      case 'file_change':
        return [
          ...toolCall(item),
          {
            type: 'tool-result',
            callId: item.id,
            output: { status: item.status, changes: item.changes ?? [] },
            isError: item.status === 'failed',
          },
        ];
      case 'mcp_tool_call':
        return [
          ...toolCall(item),
          {
            type: 'tool-result',
            callId: item.id,
            output: item.error ?? item.result ?? null,
            isError: Boolean(item.error) || item.status === 'failed',
          },
        ];
      case 'web_search':
        return [
          ...toolCall(item),
          { type: 'tool-result', callId: item.id, output: item.result ?? { query: item.query }, isError: false },
        ];
      default:
        return [{ type: 'log', stream: 'stdout', line: JSON.stringify(item) }];
    }
  };

  return {
    outcome,
    translate(event) {
      switch (event.type) {
        case 'thread.started':
          if (event.thread_id === outcome.sessionId) return [];
          outcome.sessionId = event.thread_id;
          return [{ type: 'session', sessionId: event.thread_id }];
        case 'turn.started':
          return [{ type: 'progress', message: 'codex turn started' }];
        case 'turn.completed':
          outcome.finished = true;
          outcome.succeeded = !turnFailed;
          return [
            {
              type: 'usage',
              usage: { inputTokens: event.usage.input_tokens, outputTokens: event.usage.output_tokens, costUsd: 0 },
            },
          ];
        case 'turn.failed':
          turnFailed = true;
          outcome.finished = true;
          outcome.succeeded = false;
          outcome.error = event.error.message;
          return [{ type: 'log', stream: 'stderr', line: event.error.message }];
        case 'error':
          if (!turnFailed) outcome.error = event.message;
          return [{ type: 'log', stream: 'stderr', line: event.message }];
        case 'item.started':
          return started(event.item);
        case 'item.updated':
          return event.item.type === 'todo_list' ? [todo(event.item)] : [];
        case 'item.completed':
          return completed(event.item);
      }
    },
  };
}

function toolName(item: CodexItem): string {
  if (item.type === 'mcp_tool_call') return `${item.server ?? 'mcp'}.${item.tool ?? 'tool'}`;
  return item.type;
}

function toolInput(item: CodexItem): unknown {
  switch (item.type) {
    case 'command_execution':
      return { command: item.command };
    case 'file_change':
      return { changes: item.changes ?? [] };
    case 'mcp_tool_call':
      return item.arguments ?? {};
    case 'web_search':
      return { query: item.query };
    default:
      return {};
  }
}

function todo(item: CodexItem): LaneEvent {
  const items = item.items ?? [];
  return {
    type: 'progress',
    message: items.map((i) => `${i.completed ? '[x]' : '[ ]'} ${i.text}`).join('\n') || 'todo list',
    fraction: items.length ? items.filter((i) => i.completed).length / items.length : undefined,
  };
}

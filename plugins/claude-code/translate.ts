import type { LaneEvent } from '../../src/api';
import { newOutcome, type StreamTranslator } from '../shared/streamTranslator';
import type { ClaudeStreamEvent, ContentBlock } from './streamSchema';

type Of<T extends ClaudeStreamEvent['type']> = Extract<ClaudeStreamEvent, { type: T }>;

/**
 * Claude Code stream-json → normalized events:
 * - `system/init` → `session` (its session_id) and a `progress` line;
 *   `system/api_retry` → `progress`; every other system message
 *   (compact_boundary, …), and api_retry too, → `log`, verbatim;
 * - `assistant` content: `text` → `text`, `tool_use` → `tool-call`,
 *   `thinking` → `progress`; an assistant message with `error` is the CLI's
 *   error (its text is kept too);
 * - `user` content `tool_result` → `tool-result` (with `is_error`);
 * - `result` → `usage` (tokens and `total_cost_usd`), the final text, and the
 *   error of a failed result (`errors`, else `result`).
 * Usage is taken from the result only: assistant messages repeat their
 * message's usage once per content block, so summing them would overcount.
 * Our `inputTokens` counts the whole prompt: Claude's `input_tokens` plus
 * cache creation and cache reads, which Claude reports separately.
 */
export function claudeTranslator(): StreamTranslator<ClaudeStreamEvent> {
  const outcome = newOutcome();
  const session = (id: string | undefined): LaneEvent[] => {
    if (!id || id === outcome.sessionId) return [];
    outcome.sessionId = id;
    return [{ type: 'session', sessionId: id }];
  };

  const system = (event: Of<'system'>): LaneEvent[] => {
    const raw: LaneEvent = { type: 'log', stream: 'stdout', line: JSON.stringify(event) };
    if (event.subtype === 'api_retry') {
      const why = event.error_status ? `HTTP ${event.error_status}` : (event.error ?? 'connection error');
      return [{ type: 'progress', message: `claude retries an API call (${why}): attempt ${event.attempt ?? '?'} of ${event.max_retries ?? '?'} in ${event.retry_delay_ms ?? '?'} ms` }, raw];
    }
    if (event.subtype !== 'init') return [raw];
    const about = [event.claude_code_version && `Claude Code ${event.claude_code_version}`, event.model && `model ${event.model}`].filter(Boolean).join(', ');
    return [...session(event.session_id), { type: 'progress', message: `claude started${about ? ` (${about})` : ''}` }];
  };

  const block = (b: ContentBlock): LaneEvent[] => {
    if (b.type === 'text' && 'text' in b && typeof b.text === 'string') {
      outcome.workEvents += 1;
      return [{ type: 'text', text: b.text }];
    }
    if (b.type === 'tool_use' && 'id' in b && 'name' in b && typeof b.id === 'string' && typeof b.name === 'string') {
      outcome.workEvents += 1;
      return [{ type: 'tool-call', callId: b.id, name: b.name, input: 'input' in b ? b.input : undefined }];
    }
    if (b.type === 'thinking' && 'thinking' in b && typeof b.thinking === 'string') return b.thinking ? [{ type: 'progress', message: b.thinking }] : [];
    if (b.type === 'tool_result' && 'tool_use_id' in b && typeof b.tool_use_id === 'string') {
      return [{ type: 'tool-result', callId: b.tool_use_id, output: 'content' in b ? b.content : undefined, isError: 'is_error' in b && b.is_error === true }];
    }
    return [{ type: 'log', stream: 'stdout', line: JSON.stringify(b) }];
  };

  const assistant = (event: Of<'assistant'>): LaneEvent[] => {
    const events = [...session(event.session_id), ...event.message.content.flatMap(block)];
    if (event.error) {
      const text = event.message.content.flatMap((b) => (b.type === 'text' && 'text' in b ? [String(b.text)] : [])).join(' ');
      outcome.error = text ? `${event.error}: ${text}` : event.error;
    }
    return events;
  };

  const user = (event: Of<'user'>): LaneEvent[] => {
    const content = event.message.content;
    if (typeof content === 'string') return [{ type: 'log', stream: 'stdout', line: JSON.stringify(event) }];
    // Text in a user message is the harness talking (a subagent's prompt), never the assistant: kept as a log line.
    return content.flatMap((b): LaneEvent[] => (b.type === 'tool_result' ? block(b) : [{ type: 'log', stream: 'stdout', line: JSON.stringify(b) }]));
  };

  const result = (event: Of<'result'>): LaneEvent[] => {
    outcome.finished = true;
    outcome.succeeded = event.subtype === 'success' && !event.is_error;
    outcome.resultText = event.result;
    if (!outcome.succeeded) {
      outcome.error = [event.errors?.join('; '), event.result, outcome.error].find((t) => t && t.trim()) ?? `result ${event.subtype}`;
    }
    const events = session(event.session_id);
    if (event.usage || event.total_cost_usd !== undefined) {
      const u = event.usage;
      const input = u ? u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) : 0;
      events.push({ type: 'usage', usage: { inputTokens: Math.round(input), outputTokens: Math.round(u?.output_tokens ?? 0), costUsd: event.total_cost_usd ?? 0 } });
    }
    return events;
  };

  return {
    outcome,
    translate(event) {
      switch (event.type) {
        case 'system': return system(event);
        case 'assistant': return assistant(event);
        case 'user': return user(event);
        case 'result': return result(event);
      }
    },
  };
}

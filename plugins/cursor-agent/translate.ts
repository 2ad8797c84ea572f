import type { LaneEvent } from '../../src/api';
import { newOutcome, type StreamTranslator } from '../shared/streamTranslator';
import type { CursorStreamEvent } from './streamSchema';

type Of<T extends CursorStreamEvent['type']> = Extract<CursorStreamEvent, { type: T }>;

/**
 * Cursor agent stream-json → normalized events:
 * - `system/init` → `session` (its session_id is the chat id `--resume` takes);
 * - `assistant` → `text` (the message's text parts; without
 *   --stream-partial-output each line is one whole message);
 * - `thinking` deltas → one `progress` when the thinking completes;
 * - `tool_call` started → `tool-call` (name from the tool key, `readToolCall`
 *   → `read`), completed → `tool-result` (`success` is the output; `error`
 *   or `rejected` make it an error), after a `tool-call` if none was started;
 * - `result` → `usage` (tokens only; Cursor reports no cost), the final text,
 *   and the error of an `is_error` result;
 * - the `user` echo of our prompt and `interaction_query` pairs (which the
 *   CLI answers itself) carry nothing new and are dropped.
 */
export function cursorTranslator(): StreamTranslator<CursorStreamEvent> {
  const outcome = newOutcome();
  let thinking = '';
  const started = new Set<string>();

  const session = (id: string | undefined): LaneEvent[] => {
    if (!id || id === outcome.sessionId) return [];
    outcome.sessionId = id;
    return [{ type: 'session', sessionId: id }];
  };

  const toolCall = (event: Of<'tool_call'>): LaneEvent[] => {
    const [key, call] = Object.entries(event.tool_call)[0] ?? ['unknown', {}];
    const name = key.replace(/ToolCall$/, '') || key;
    const calls: LaneEvent[] = [];
    if (!started.has(event.call_id)) {
      started.add(event.call_id);
      outcome.workEvents += 1;
      calls.push({ type: 'tool-call', callId: event.call_id, name, input: call.args ?? {} });
    }
    if (event.subtype === 'started') return calls;
    const result = (call.result ?? {}) as Record<string, unknown>;
    const failed = 'error' in result || 'rejected' in result;
    const output = 'success' in result ? result.success : result;
    return [...calls, { type: 'tool-result', callId: event.call_id, output, isError: failed }];
  };

  const result = (event: Of<'result'>): LaneEvent[] => {
    outcome.finished = true;
    outcome.succeeded = event.subtype === 'success' && !event.is_error;
    outcome.resultText = event.result;
    if (!outcome.succeeded) outcome.error = event.result?.trim() || `result ${event.subtype}`;
    const events = session(event.session_id);
    if (event.usage)
      events.push({
        type: 'usage',
        usage: { inputTokens: event.usage.inputTokens, outputTokens: event.usage.outputTokens, costUsd: 0 },
      });
    return events;
  };

  return {
    outcome,
    translate(event) {
      switch (event.type) {
        case 'system':
          return event.subtype === 'init'
            ? [
                ...session(event.session_id),
                { type: 'progress', message: `cursor-agent started${event.model ? ` (model ${event.model})` : ''}` },
              ]
            : [{ type: 'log', stream: 'stdout', line: JSON.stringify(event) }];
        case 'assistant': {
          const text = event.message.content.map((c) => c.text ?? '').join('');
          if (!text) return session(event.session_id);
          outcome.workEvents += 1;
          return [...session(event.session_id), { type: 'text', text }];
        }
        case 'thinking': {
          if (event.subtype === 'delta') thinking += event.text ?? '';
          if (event.subtype !== 'completed' || !thinking) return [];
          const message = thinking;
          thinking = '';
          return [{ type: 'progress', message }];
        }
        case 'tool_call':
          return [...session(event.session_id), ...toolCall(event)];
        case 'user':
        case 'interaction_query':
          return [];
        case 'result':
          return result(event);
      }
    },
  };
}

import type { LaneEvent } from '../../src/api';
import { newOutcome, type StreamTranslator } from '../shared/streamTranslator';
import { claudeCodeManifest } from './manifest';
import { isEditOrCommand, judgeDenials } from './permissionDenials';
import type { ClaudeStreamEvent, ContentBlock } from './streamSchema';
import type { SessionTotals } from './sessionCostState';
import { UsageTally } from './usageTally';

type Of<T extends ClaudeStreamEvent['type']> = Extract<ClaudeStreamEvent, { type: T }>;

/**
 * Claude Code stream-json → normalized events:
 * - `system/init` → `session` (its session_id) and a `progress` line;
 *   `system/api_retry` and `system/permission_denied` → `progress`; every
 *   other system message (compact_boundary, …), and those too, → `log`,
 *   verbatim;
 * - `assistant` content: `text` → `text`, `tool_use` → `tool-call`,
 *   `thinking` → `progress`, and the message's usage → `usage`, once per
 *   message (see UsageTally);
 * - `stream_event`: its `message_delta` usage → `usage` (the call's final
 *   output tokens, before any result); the rest → nothing (their content
 *   comes again in the `assistant` message);
 * - an API error the CLI writes as an assistant message (`model:
 *   "<synthetic>"`, top-level `error`, `api_error_status`) is the CLI's
 *   error with its HTTP status, never model text: a `progress` line;
 * - `user` content `tool_result` → `tool-result` (with `is_error`);
 * - `result` → the rest of the `usage` (totals and `total_cost_usd`), the
 *   final text, the error of a failed result (`errors`, the API error with
 *   its status, else `result`), and its `permission_denials`: every edit
 *   and command denied fails the run as `permission-denied` (as `lane-exit`
 *   when each refused edit named a file outside the worktree), some denied
 *   is a warning.
 */
export function claudeTranslator(
  context: { workspaceDir?: string; restored?: SessionTotals } = {},
): StreamTranslator<ClaudeStreamEvent> {
  const outcome = newOutcome();
  const tally = new UsageTally(context.restored, claudeCodeManifest.modelPrices);
  /** Edit and command tool calls seen: tool_use id → tool name. */
  const requested = new Map<string, string>();
  let apiError: string | undefined;
  const usage = (u: ReturnType<UsageTally['message']>): LaneEvent[] => (u ? [{ type: 'usage', usage: u }] : []);
  const session = (id: string | undefined): LaneEvent[] => {
    if (!id || id === outcome.sessionId) return [];
    outcome.sessionId = id;
    return [{ type: 'session', sessionId: id }];
  };

  const system = (event: Of<'system'>): LaneEvent[] => {
    const raw: LaneEvent = { type: 'log', stream: 'stdout', line: JSON.stringify(event) };
    if (event.subtype === 'api_retry') {
      const why = event.error_status ? `HTTP ${event.error_status}` : (event.error ?? 'connection error');
      return [
        {
          type: 'progress',
          message: `claude retries an API call (${why}): attempt ${event.attempt ?? '?'} of ${event.max_retries ?? '?'} in ${event.retry_delay_ms ?? '?'} ms`,
        },
        raw,
      ];
    }
    if (event.subtype === 'permission_denied') {
      const why = typeof event.message === 'string' ? `: ${event.message}` : '';
      return [{ type: 'progress', message: `claude was denied ${event.tool_name ?? 'a tool'}${why}` }, raw];
    }
    if (event.subtype !== 'init') return [raw];
    const about = [
      event.claude_code_version && `Claude Code ${event.claude_code_version}`,
      event.model && `model ${event.model}`,
    ]
      .filter(Boolean)
      .join(', ');
    return [...session(event.session_id), { type: 'progress', message: `claude started${about ? ` (${about})` : ''}` }];
  };

  const block = (b: ContentBlock): LaneEvent[] => {
    if (b.type === 'text' && 'text' in b && typeof b.text === 'string') {
      outcome.workEvents += 1;
      return [{ type: 'text', text: b.text }];
    }
    if (b.type === 'tool_use' && 'id' in b && 'name' in b && typeof b.id === 'string' && typeof b.name === 'string') {
      outcome.workEvents += 1;
      if (isEditOrCommand(b.name)) requested.set(b.id, b.name);
      return [{ type: 'tool-call', callId: b.id, name: b.name, input: 'input' in b ? b.input : undefined }];
    }
    if (b.type === 'thinking' && 'thinking' in b && typeof b.thinking === 'string')
      return b.thinking ? [{ type: 'progress', message: b.thinking }] : [];
    if (b.type === 'tool_result' && 'tool_use_id' in b && typeof b.tool_use_id === 'string') {
      return [
        {
          type: 'tool-result',
          callId: b.tool_use_id,
          output: 'content' in b ? b.content : undefined,
          isError: 'is_error' in b && b.is_error === true,
        },
      ];
    }
    return [{ type: 'log', stream: 'stdout', line: JSON.stringify(b) }];
  };

  const assistant = (event: Of<'assistant'>): LaneEvent[] => {
    const synthetic = event.message.model === '<synthetic>';
    if (synthetic || event.error || event.is_api_error_message) {
      // The CLI talking, not the model: its text is an error (or a notice), never the agent's answer.
      const text = event.message.content
        .flatMap((b) => (b.type === 'text' && 'text' in b ? [String(b.text)] : []))
        .join(' ');
      const raw: LaneEvent = { type: 'log', stream: 'stdout', line: JSON.stringify(event) };
      if (!event.error && !event.is_api_error_message) return [...session(event.session_id), raw];
      const status = event.api_error_status ? `HTTP ${event.api_error_status}` : undefined;
      const what = [status, event.api_error_type ?? event.api_error ?? event.error].filter(Boolean).join(' ');
      apiError = `API error (${what || 'unknown'})${text ? `: ${text}` : ''}`;
      outcome.error = apiError;
      return [
        ...session(event.session_id),
        { type: 'progress', message: `claude's API call failed: ${apiError}` },
        raw,
      ];
    }
    return [
      ...session(event.session_id),
      ...event.message.content.flatMap(block),
      ...usage(tally.message(event.message.id, event.message.usage, event.message.model)),
    ];
  };

  const streamEvent = (event: Of<'stream_event'>): LaneEvent[] => {
    const e = event.event;
    // A call's usage counts from its first content (its `assistant` line) or its end, never from `message_start`
    // alone: a stream cut before any content is not a paid call here (nor in the scripted servers).
    if (e.type === 'message_delta') return usage(tally.message(event.api_message_id, e.usage));
    return [];
  };

  const user = (event: Of<'user'>): LaneEvent[] => {
    const content = event.message.content;
    if (typeof content === 'string') return [{ type: 'log', stream: 'stdout', line: JSON.stringify(event) }];
    // Text in a user message is the harness talking (a subagent's prompt), never the assistant: kept as a log line.
    return content.flatMap((b): LaneEvent[] =>
      b.type === 'tool_result' ? block(b) : [{ type: 'log', stream: 'stdout', line: JSON.stringify(b) }],
    );
  };

  const result = (event: Of<'result'>): LaneEvent[] => {
    outcome.finished = true;
    outcome.succeeded = event.subtype === 'success' && !event.is_error;
    outcome.resultText = event.result;
    if (!outcome.succeeded) {
      const status = event.api_error_status ? `API error (HTTP ${event.api_error_status}): ` : '';
      const said = event.result?.trim() ? `${status}${event.result}` : undefined;
      // Claude Code's `[ede_diagnostic]` notes name no cause: the real errors go first.
      const errors = [...(event.errors ?? [])].sort(
        (a, b) => Number(a.startsWith('[ede_diagnostic]')) - Number(b.startsWith('[ede_diagnostic]')),
      );
      outcome.error =
        [errors.join('; '), apiError, said, outcome.error].find((t) => t?.trim()) ?? `result ${event.subtype}`;
    }
    const events = [
      ...session(event.session_id),
      ...usage(tally.result({ usage: event.usage, modelUsage: event.modelUsage, totalCostUsd: event.total_cost_usd })),
    ];
    const denials = judgeDenials('claude', requested, event.permission_denials ?? [], context.workspaceDir);
    if ((denials.kind === 'all-denied' || denials.kind === 'outside-worktree') && outcome.succeeded) {
      // The CLI calls it a success; the lane fails a work run with it (a review is read-only by design). A failed
      // result keeps its own error. Edits refused for naming another directory are no permission setting's doing.
      outcome.failureCode = denials.kind === 'all-denied' ? 'permission-denied' : 'lane-exit';
      outcome.error = denials.message;
    } else if (denials.kind !== 'none') {
      outcome.warnings = [...(outcome.warnings ?? []), denials.message];
      events.push({ type: 'progress', message: `warning: ${denials.message}` });
    }
    return events;
  };

  return {
    outcome,
    translate(event) {
      switch (event.type) {
        case 'system':
          return system(event);
        case 'assistant':
          return assistant(event);
        case 'stream_event':
          return streamEvent(event);
        case 'user':
          return user(event);
        case 'result':
          return result(event);
      }
    },
  };
}

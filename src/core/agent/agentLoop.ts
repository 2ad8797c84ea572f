import type { LanguageModel, ModelMessage } from 'ai';
import { CallFailedError } from '../journal/durableCalls';
import { withRetry, defaultSleep, RetryGaveUpError, type RetryPolicy } from '../retry/retryPolicy';
import type { LaneRunInput } from '../lanes/lanePlugin';
import type { PriceTable } from '../model/laneManifest';
import type { AgentTool } from './agentTool';
import { BudgetTracker, type BudgetLimits } from './budget';
import { assistantMessage, taskMessage, toolResultsMessage, type ToolResultText } from './conversation';
import { describeZodError } from '../model/zodIssues';
import { ModelTurn, streamModelTurn, toolDefinitions, type ModelTurnRequest, type TurnPart } from './modelTurn';
import type { Usage } from '../model/laneEvent';
import { formatTokens } from '../text/usageText';
import { formatUsd } from '../text/usageText';
import {
  CHARS_PER_TOKEN,
  capToolOutput,
  compactConversation,
  estimateTokens,
  type CompactionReport,
} from './contextCompaction';
import { classifyProviderError, toProviderError } from './providerError';
import { ToolCallRunner } from './toolCallRunner';

export interface AgentLoopOptions {
  model: LanguageModel;
  modelId: string;
  /** The durable call's name for a model call, e.g. `anthropic.messages`. */
  callName: string;
  system: string;
  tools: readonly AgentTool[];
  maxOutputTokens: number;
  /** A model stream silent this long is cut and retried. */
  streamIdleTimeoutMs: number;
  price: PriceTable | undefined;
  /** The model's context window in tokens: the conversation is compacted before a request would pass ~80% of it. */
  contextWindow: number;
  /** Anthropic prompt caching: breakpoints on the tools, the system prompt and the latest messages. */
  promptCache?: { ttl: '5m' | '1h' };
  budget: BudgetLimits;
  /** Decides which failed model calls are tried again, and when (the library's own retries are off). */
  retry: RetryPolicy;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type AgentOutcome =
  /** `ending`: the input of the tool that ended the run (`finish` or `verdict`); absent when the model just stopped. */
  | { status: 'succeeded'; summary: string; ending?: unknown }
  | { status: 'failed'; code: 'budget-exceeded' | 'provider-rejected' | 'lane-exit'; reason: string };

const PERMANENT_MARK = '(permanent:';

/**
 * The agent loop of the API lanes: system prompt + task → model call → tool
 * calls → tool results → … until the model finishes or a budget is hit.
 * Every model call and tool call is a durable call, so a run interrupted
 * mid-turn resumes there: completed calls are read back (not re-sent, not
 * re-paid), an interrupted model call is sent again, an interrupted tool call
 * follows its replay rule. The loop is deterministic given the calls' results.
 */
export async function runAgentLoop(input: LaneRunInput, options: AgentLoopOptions): Promise<AgentOutcome> {
  const budget = new BudgetTracker(options.budget);
  const tools = new ToolCallRunner(input, options.tools, budget);
  const messages: ModelMessage[] = [{ role: 'user', content: taskMessage(input) }];
  const fixedTokens = estimateTokens(options.system) + estimateTokens(toolDefinitions(options.tools));
  // A tool result longer than a quarter of the window (in characters: ~1/16 of it in tokens) is cut for the call.
  const toolOutputChars = Math.min(100_000, Math.floor((options.contextWindow * CHARS_PER_TOKEN) / 4));
  let sent = 0;
  /** The length of the previous request: its last message is a cache breakpoint this request reads. */
  let previousEnd: number | undefined;
  /** What the provider counted over what the estimate said, for the previous request (≥ 1). */
  let scale = 1;
  for (let turn = 1; ; turn++) {
    input.signal.throwIfAborted();
    const over = budget.beforeModelCall();
    if (over) return { status: 'failed', code: 'budget-exceeded', reason: over };

    const compacted = compactConversation(messages, { window: options.contextWindow, fixedTokens, scale });
    if (compacted) {
      sent = 0;
      previousEnd = undefined;
    }
    const estimated = fixedTokens + messages.reduce((n, m) => n + estimateTokens(m), 0);
    // The journal keeps what this request adds (all of it after a compaction); the whole request is the system prompt
    // and every earlier input and output.
    const request = {
      model: options.modelId,
      turn,
      ...(turn === 1 ? { system: options.system } : {}),
      ...(compacted ? { compacted: { before: compacted.before, after: compacted.after } } : {}),
      messages: messages.slice(sent),
    };
    const marks = [messages.length - 1, ...(previousEnd && previousEnd < messages.length ? [previousEnd - 1] : [])];
    const cache = options.promptCache && { ttl: options.promptCache.ttl, messages: marks };
    previousEnd = messages.length;
    let turnResult;
    try {
      turnResult = await input.call<ModelTurn>(
        { kind: 'model', name: options.callName, input: request, replay: 'safe', usage: (t) => t.usage },
        () => modelCallWithRetries(input, options, [...messages], budget, cache),
      );
    } catch (error) {
      input.signal.throwIfAborted();
      return modelFailure(error);
    }
    if (turnResult.status !== 'ok') return { status: 'failed', code: 'lane-exit', reason: turnResult.message };
    const checked = turnResult.replayed
      ? ModelTurn.safeParse(turnResult.value)
      : { success: true as const, data: turnResult.value };
    if (!checked.success)
      return {
        status: 'failed',
        code: 'lane-exit',
        reason: `the journal's model response for turn ${turn} is not a model turn (${describeZodError(checked.error)}); the run cannot resume from it`,
      };
    const result = checked.data;
    budget.addUsage(result.usage);
    if (result.usage.inputTokens > 0) scale = Math.max(1, result.usage.inputTokens / estimated);
    if (!turnResult.replayed) {
      tools.replaying = false;
      // Logged once, with the answer of the call it preceded: by the process whose request was answered (a resumed run
      // rebuilds the compactions of replayed calls silently, and logs the one of a re-sent call).
      if (compacted) input.emit({ type: 'progress', message: compactionNote(turn, compacted, options.contextWindow) });
      input.emit({ type: 'usage', usage: result.usage });
      input.emit({ type: 'progress', message: callNote(turn, result.usage) });
    }
    // An empty turn is not sent back: the APIs refuse a message without content.
    if (result.content.length) messages.push(assistantMessage(result));
    sent = messages.length;

    const calls = result.content.filter((p): p is Extract<TurnPart, { type: 'tool-call' }> => p.type === 'tool-call');
    if (!calls.length) {
      if (result.finishReason === 'length') {
        messages.push({
          role: 'user',
          content:
            'Your reply was cut off at the output token limit. Continue in smaller steps, and call finish when the task is done.',
        });
        continue;
      }
      const text = result.content
        .map((p) => (p.type === 'text' ? p.text : ''))
        .join('\n')
        .trim();
      return {
        status: 'succeeded',
        summary: text || 'the model ended its turn without calling finish or saying anything',
      };
    }
    const results: ToolResultText[] = [];
    let ending: { input: unknown } | undefined;
    for (const call of calls) {
      const done = await tools.run(call);
      if (done.kind === 'budget') return { status: 'failed', code: 'budget-exceeded', reason: done.reason };
      if (done.kind === 'finish') ending = { input: done.input };
      results.push({ ...done.result, text: capToolOutput(done.result.text, toolOutputChars) });
    }
    messages.push(toolResultsMessage(results));
    if (ending) return { status: 'succeeded', summary: endingSummary(ending.input), ending: ending.input };
  }
}

/**
 * One model call with Switchyard's retry policy; each failure is reported as a progress event and remembered as the
 * last error.
 */
async function modelCallWithRetries(
  input: LaneRunInput,
  options: AgentLoopOptions,
  messages: ModelMessage[],
  budget: BudgetTracker,
  cache: ModelTurnRequest['cache'],
): Promise<ModelTurn> {
  try {
    return await withRetry(
      () =>
        streamModelTurn({
          model: options.model,
          system: options.system,
          messages,
          tools: options.tools,
          maxOutputTokens: options.maxOutputTokens,
          idleTimeoutMs: options.streamIdleTimeoutMs,
          price: options.price,
          cache,
          signal: input.signal,
          onText: (text) => input.emit({ type: 'text', text }),
          onWarning: (message) => input.emit({ type: 'progress', message }),
        }),
      {
        policy: options.retry,
        signal: input.signal,
        sleep: options.sleep ?? defaultSleep,
        classifyWith: classifyProviderError,
        onRetry: (decision, error) => {
          const message = (toProviderError(error) as Error).message;
          budget.noteError(message);
          input.emit({ type: 'progress', message: `model call failed: ${message}; ${decision.reason}` });
        },
      },
    );
  } catch (error) {
    if (input.signal.aborted || !(error instanceof RetryGaveUpError)) throw error;
    const last = toProviderError(error.cause) as Error;
    const verdict = error.decision.class ? ` (${error.decision.class}: ${error.decision.rule})` : '';
    throw new Error(`model call failed after ${error.attempts} attempt(s): ${last.message}${verdict}`, { cause: last });
  }
}

/** The run log's line for a model call: its tokens, their cache split and its cost. */
function callNote(turn: number, usage: Usage): string {
  return `model call ${turn}: ${formatTokens(usage)}, ${formatUsd(usage.costUsd)}`;
}

function compactionNote(turn: number, report: CompactionReport, window: number): string {
  return `context compacted before model call ${turn}: ~${report.before} → ~${report.after} prompt tokens (window ${window}; ${report.cutResults} older tool result(s) cut to head and tail, ${report.removedTurns} earlier turn(s) removed)`;
}

function endingSummary(input: unknown): string {
  const { summary, verdict, reasons } = input as { summary?: string; verdict?: string; reasons?: string[] };
  if (summary) return summary;
  return `${verdict ?? 'done'}${reasons?.length ? `: ${reasons.join('; ')}` : ''}`;
}

/**
 * The run's failure after a model call gave up; the same text (from the journal) when the failed call is read back on
 * resume.
 */
function modelFailure(error: unknown): AgentOutcome {
  const message = error instanceof CallFailedError || error instanceof Error ? error.message : String(error);
  return {
    status: 'failed',
    code: message.includes(PERMANENT_MARK) ? 'provider-rejected' : 'lane-exit',
    reason: message,
  };
}

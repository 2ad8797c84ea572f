import type { Usage } from '../../src/api';
import type { ClaudeUsage, ModelUsage } from './streamSchema';

type Tokens = { input: number; output: number };
type ResultTotals = { usage?: ClaudeUsage; modelUsage?: Record<string, ModelUsage>; totalCostUsd?: number };

/**
 * Counts Claude Code's tokens once per API call, as they arrive, so an
 * attempt that is killed or times out before its `result` still records
 * the calls that finished:
 * - each assistant message carries its API call's usage, repeated on every
 *   content block of that message (one stream line per block), so a
 *   message id counts once: its largest usage seen, only the growth since
 *   the last count is new;
 * - the `result` then brings the process's totals: `modelUsage` (every
 *   model, every call: side calls and calls cut mid-stream too) when
 *   present, else `usage` (which on `error_during_execution` may be the last
 *   call only), and the cost (`total_cost_usd`). Only what the messages did
 *   not count yet is added; the tally never counts down.
 * Our `inputTokens` is the whole prompt: Claude's `input_tokens` plus cache
 * creation and cache reads, which Claude reports separately.
 */
export class UsageTally {
  private readonly perMessage = new Map<string, Tokens>();
  private readonly counted: Tokens = { input: 0, output: 0 };

  /** An assistant message's usage: the part not counted yet, if any. */
  message(id: string | undefined, usage: ClaudeUsage | null | undefined): Usage | undefined {
    if (!id || !usage) return undefined;
    const now = { input: promptTokens(usage), output: usage.output_tokens };
    const before = this.perMessage.get(id) ?? { input: 0, output: 0 };
    const grown = { input: Math.max(0, now.input - before.input), output: Math.max(0, now.output - before.output) };
    this.perMessage.set(id, { input: Math.max(now.input, before.input), output: Math.max(now.output, before.output) });
    return this.add(grown, 0);
  }

  /** The result's totals: the rest of the tokens, and the cost. */
  result(totals: ResultTotals): Usage | undefined {
    const models = Object.values(totals.modelUsage ?? {});
    const all: Tokens = models.length
      ? models.reduce(
          (sum, m) => ({
            input: sum.input + m.inputTokens + (m.cacheReadInputTokens ?? 0) + (m.cacheCreationInputTokens ?? 0),
            output: sum.output + m.outputTokens,
          }),
          { input: 0, output: 0 },
        )
      : totals.usage
        ? { input: promptTokens(totals.usage), output: totals.usage.output_tokens }
        : { input: 0, output: 0 };
    const cost = totals.totalCostUsd ?? models.reduce((sum, m) => sum + (m.costUSD ?? 0), 0);
    return this.add(
      { input: Math.max(0, all.input - this.counted.input), output: Math.max(0, all.output - this.counted.output) },
      cost,
    );
  }

  private add(tokens: Tokens, costUsd: number): Usage | undefined {
    const input = Math.round(tokens.input);
    const output = Math.round(tokens.output);
    if (!input && !output && !costUsd) return undefined;
    this.counted.input += input;
    this.counted.output += output;
    return { inputTokens: input, outputTokens: output, costUsd };
  }
}

function promptTokens(u: ClaudeUsage): number {
  return u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
}

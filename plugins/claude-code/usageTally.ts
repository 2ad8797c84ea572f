import type { PriceTable, Usage } from '../../src/api';
import type { ClaudeUsage, ModelUsage } from './streamSchema';

/** `input` is the whole prompt; `read` and `write` the parts of it read from and written to the prompt cache. */
type Tokens = { input: number; output: number; read: number; write: number };
const NONE: Tokens = { input: 0, output: 0, read: 0, write: 0 };
type ResultTotals = { usage?: ClaudeUsage; modelUsage?: Record<string, ModelUsage>; totalCostUsd?: number };

/**
 * Counts Claude Code's tokens once per API call, as they arrive, so an
 * attempt that is killed or times out before its `result` still records
 * the calls that finished:
 * - each API call's usage comes with its message id: on every `assistant`
 *   line of that message (2.1.332 repeats the usage of its `message_start`,
 *   `output_tokens: 1`, on each content block), then final when its stream
 *   ends (`stream_event` `message_delta`, with `--include-partial-messages`);
 *   a message id counts once: its largest usage seen, only
 *   the growth since the last count is new. Those tokens are priced at once
 *   from `prices` (the message's model, longest id prefix; Anthropic's cache
 *   multipliers), since a killed process gives no cost;
 * - the `result` then brings the process's totals: `modelUsage` (every
 *   model, every call: side calls and calls cut mid-stream too) when
 *   present, else `usage` (which on `error_during_execution` may be the last
 *   call only), and the cost (`total_cost_usd`). Only what the messages did
 *   not count yet is added, and the cost less what the calls were priced at
 *   already; the tally never counts down.
 * `modelUsage` and `total_cost_usd` are the SESSION's running totals: a
 * resumed session starts from the totals its transcript kept (`restored`,
 * see sessionCostState.ts), which earlier processes already counted; they
 * are subtracted, so each call counts once. (`usage` is the process's own.)
 * Our `inputTokens` is the whole prompt: Claude's `input_tokens` plus cache
 * creation and cache reads, which Claude reports separately; those two are
 * also kept as `cacheWriteTokens` and `cacheReadTokens`.
 */
export class UsageTally {
  private readonly perMessage = new Map<string, Tokens>();
  private readonly models = new Map<string, string>();
  private readonly counted: Tokens = { ...NONE };
  private readonly restored: Tokens;
  private readonly restoredCost: number;
  /** What the calls were priced at as they arrived. */
  private priced = 0;

  constructor(
    restored?: { modelUsage: Record<string, ModelUsage>; totalCostUsd: number },
    private readonly prices: Record<string, PriceTable> = {},
  ) {
    this.restored = restored ? modelTokens(Object.values(restored.modelUsage)) : NONE;
    this.restoredCost = restored?.totalCostUsd ?? 0;
  }

  /** A call's usage, as of its start or its end: the part not counted yet, if any, priced. */
  message(id: string | undefined, usage: ClaudeUsage | null | undefined, model?: string): Usage | undefined {
    if (!id || !usage) return undefined;
    if (model && !this.models.has(id)) this.models.set(id, model);
    const now = tokensOf(usage);
    const before = this.perMessage.get(id) ?? NONE;
    this.perMessage.set(id, combine(now, before, Math.max));
    const tokens = growth(now, before);
    const cost = costOf(tokens, priceOf(this.models.get(id), this.prices));
    const counted = this.add(tokens, cost);
    if (counted) this.priced += counted.costUsd ?? 0;
    return counted;
  }

  /** The result's totals: the rest of the tokens, and the cost. */
  result(totals: ResultTotals): Usage | undefined {
    const models = Object.values(totals.modelUsage ?? {});
    // The session's totals less what it restored: this process's own (`usage` is the process's own already).
    const all: Tokens = models.length
      ? growth(modelTokens(models), this.restored)
      : totals.usage
        ? tokensOf(totals.usage)
        : NONE;
    const sessionCost = totals.totalCostUsd ?? models.reduce((sum, m) => sum + (m.costUSD ?? 0), 0);
    // Rounded to 1e-10 USD: the difference of float sums.
    const cost = Math.max(0, Math.round((sessionCost - this.restoredCost - this.priced) * 1e10) / 1e10);
    return this.add(growth(all, this.counted), cost);
  }

  private add(tokens: Tokens, cost: number): Usage | undefined {
    const t = combine(tokens, NONE, (a) => Math.round(a));
    const costUsd = Math.round(cost * 1e10) / 1e10;
    if (!t.input && !t.output && !costUsd) return undefined;
    Object.assign(this.counted, combine(this.counted, t, add));
    return {
      inputTokens: t.input,
      outputTokens: t.output,
      ...(t.read ? { cacheReadTokens: t.read } : {}),
      ...(t.write ? { cacheWriteTokens: t.write } : {}),
      costUsd,
    };
  }
}

/** Anthropic's prompt-cache prices relative to the input price: a (5-minute) cache write 1.25×, a read 0.1×. */
const CACHE_WRITE = 1.25;
const CACHE_READ = 0.1;

/** The price of `model`: the longest id prefix listed in `prices` (so `claude-sonnet-4-5` prices its dated ids). */
function priceOf(model: string | undefined, prices: Record<string, PriceTable>): PriceTable | undefined {
  if (!model) return undefined;
  const key = Object.keys(prices)
    .filter((k) => model.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return key ? prices[key] : undefined;
}

function costOf(t: Tokens, price: PriceTable | undefined): number {
  if (!price) return 0;
  const input = price.inputPerMTokUsd;
  const uncached = t.input - t.read - t.write;
  return (
    (uncached * input +
      t.write * (price.cacheWritePerMTokUsd ?? input * CACHE_WRITE) +
      t.read * (price.cacheReadPerMTokUsd ?? input * CACHE_READ) +
      t.output * price.outputPerMTokUsd) /
    1_000_000
  );
}

function modelTokens(models: readonly ModelUsage[]): Tokens {
  return models.reduce((sum, m) => {
    const read = m.cacheReadInputTokens ?? 0;
    const write = m.cacheCreationInputTokens ?? 0;
    return combine(sum, { input: m.inputTokens + read + write, output: m.outputTokens, read, write }, add);
  }, NONE);
}

function tokensOf(u: ClaudeUsage): Tokens {
  const read = u.cache_read_input_tokens ?? 0;
  const write = u.cache_creation_input_tokens ?? 0;
  return { input: u.input_tokens + read + write, output: u.output_tokens, read, write };
}

/** What `now` counts beyond `before`, per kind; never negative. */
function growth(now: Tokens, before: Tokens): Tokens {
  return combine(now, before, (a, b) => Math.max(0, a - b));
}

function combine(a: Tokens, b: Tokens, f: (x: number, y: number) => number): Tokens {
  return {
    input: f(a.input, b.input),
    output: f(a.output, b.output),
    read: f(a.read, b.read),
    write: f(a.write, b.write),
  };
}

function add(x: number, y: number): number {
  return x + y;
}

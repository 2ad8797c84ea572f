import type { Usage } from '../model/laneEvent';
import type { PriceTable } from '../model/laneManifest';

export interface PriceChoice {
  price?: PriceTable;
  /** Where the price came from, for the run log: `project setting`, `manifest (claude-sonnet-4-5)`, … */
  source: string;
  /** Set when the model has no price of its own (a default or $0 is used): a warning for the run log. */
  warning?: string;
}

/**
 * How a provider prices its prompt cache relative to the input price, for a price table that lists no cache prices
 * (Anthropic: a 5-minute cache write costs 1.25× the input price, a 1-hour write 2×, a read 0.1×).
 */
export interface CacheMultipliers {
  write5m: number;
  write1h: number;
  read: number;
}

/**
 * The price of a model: the project's override first (the lane setting
 * `price`), then the manifest's `modelPrices` (exact id, then the longest
 * id prefix, so `claude-sonnet-4-5` prices `claude-sonnet-4-5-20250929`),
 * then the manifest's `price`. No price at all means cost 0 (a local model).
 */
export function choosePrice(
  modelId: string,
  manifest: { price?: PriceTable; modelPrices?: Record<string, PriceTable> },
  override?: PriceTable,
): PriceChoice {
  if (override) return { price: override, source: 'project setting "price"' };
  const table = manifest.modelPrices ?? {};
  if (table[modelId]) return { price: table[modelId], source: `the lane's price for ${modelId}` };
  const prefix = longestPrefix(modelId, table);
  if (prefix) return { price: table[prefix], source: `the lane's price for ${prefix}` };
  if (manifest.price)
    return {
      price: manifest.price,
      source: `the lane's default price (no price listed for ${modelId})`,
      warning: `model ${modelId} is not in the lane's price table: its cost is counted at the lane's default price (${manifest.price.inputPerMTokUsd}/${manifest.price.outputPerMTokUsd} USD per million input/output tokens); set the lane setting "price" to the model's own`,
    };
  return { source: `no price for ${modelId}: cost counted as $0` };
}

/** The key of `table` that is the longest prefix of `id` (exact match included). */
export function longestPrefix(id: string, table: Record<string, unknown>): string | undefined {
  return Object.keys(table)
    .filter((key) => id.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
}

/** A price table with its cache prices filled in from the provider's multipliers where it lists none. */
export function withCachePrices(price: PriceTable, multipliers: CacheMultipliers | undefined): PriceTable {
  if (!multipliers) return price;
  const input = price.inputPerMTokUsd;
  return {
    ...price,
    cacheWritePerMTokUsd: price.cacheWritePerMTokUsd ?? input * multipliers.write5m,
    cacheWrite1hPerMTokUsd: price.cacheWrite1hPerMTokUsd ?? input * multipliers.write1h,
    cacheReadPerMTokUsd: price.cacheReadPerMTokUsd ?? input * multipliers.read,
  };
}

/** A call's tokens as the provider reported them: `input` is the whole prompt, cache reads and writes included. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * Tokens × their price per million tokens: uncached input at the input price, cache writes at the write price (the
 * 1-hour one for `ttl: '1h'`), cache reads at the read price, output at the output price. A cache price the table does
 * not list is the input price.
 */
export function usageWithCost(tokens: TokenCounts, price: PriceTable | undefined, ttl: '5m' | '1h' = '5m'): Usage {
  const read = Math.min(tokens.cacheRead ?? 0, tokens.input);
  const write = Math.min(tokens.cacheWrite ?? 0, tokens.input - read);
  const uncached = tokens.input - read - write;
  let costUsd = 0;
  if (price) {
    const writePrice =
      (ttl === '1h' ? price.cacheWrite1hPerMTokUsd : price.cacheWritePerMTokUsd) ?? price.inputPerMTokUsd;
    costUsd =
      (uncached * price.inputPerMTokUsd +
        write * writePrice +
        read * (price.cacheReadPerMTokUsd ?? price.inputPerMTokUsd) +
        tokens.output * price.outputPerMTokUsd) /
      1_000_000;
  }
  return {
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    costUsd,
    ...(tokens.cacheRead !== undefined ? { cacheReadTokens: read } : {}),
    ...(tokens.cacheWrite !== undefined ? { cacheWriteTokens: write } : {}),
  };
}

import type { Usage } from '../model/laneEvent';
import type { PriceTable } from '../model/laneManifest';

export interface PriceChoice {
  price?: PriceTable;
  /** Where the price came from, for the run log: `project setting`, `manifest (claude-sonnet-4-5)`, … */
  source: string;
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
  const prefix = Object.keys(table)
    .filter((id) => modelId.startsWith(id))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix) return { price: table[prefix], source: `the lane's price for ${prefix}` };
  if (manifest.price)
    return { price: manifest.price, source: `the lane's default price (no price listed for ${modelId})` };
  return { source: `no price for ${modelId}: cost counted as $0` };
}

/** Tokens × price per million tokens. */
export function usageWithCost(inputTokens: number, outputTokens: number, price: PriceTable | undefined): Usage {
  const costUsd = price ? (inputTokens * price.inputPerMTokUsd + outputTokens * price.outputPerMTokUsd) / 1_000_000 : 0;
  return { inputTokens, outputTokens, costUsd };
}

export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** What a task's runs cost together (each run's usage is counted once, resumes included). */
export function totalCostUsd(runs: readonly { usage?: Usage }[]): number {
  return runs.reduce((sum, run) => sum + (run.usage?.costUsd ?? 0), 0);
}

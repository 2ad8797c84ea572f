/** The figures of a usage record this text needs (the model's `Usage`, or the panel's copy of it). */
export interface UsageFigures {
  /** The whole prompt, cache reads and writes included. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** The share of the prompt tokens read from the cache (0…1); undefined when the provider reported no cache figures. */
export function cacheShare(usage: UsageFigures): number | undefined {
  if (usage.cacheReadTokens === undefined && usage.cacheWriteTokens === undefined) return undefined;
  return usage.inputTokens > 0 ? (usage.cacheReadTokens ?? 0) / usage.inputTokens : 0;
}

/**
 * How the prompt tokens split, e.g. `4300 cache read (83%), 600 cache write, 310 uncached`; empty when the provider
 * reported no cache figures or nothing was read from or written to the cache.
 */
export function formatCacheSplit(usage: UsageFigures): string {
  const share = cacheShare(usage);
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  if (share === undefined || (read === 0 && write === 0)) return '';
  const uncached = Math.max(0, usage.inputTokens - read - write);
  return `${read} cache read (${Math.round(share * 100)}%), ${write} cache write, ${uncached} uncached`;
}

/** `5210+120 tokens`, with the cache split when there is one: `5210+120 tokens (4300 cache read (83%), …)`. */
export function formatTokens(usage: UsageFigures): string {
  const split = formatCacheSplit(usage);
  return `${usage.inputTokens}+${usage.outputTokens} tokens${split ? ` (${split})` : ''}`;
}

/** A cost in US dollars: four decimals under a dollar, two from a dollar on. */
export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** What a task's runs cost together (each run's usage is counted once, resumes included). */
export function totalCostUsd(runs: readonly { usage?: { costUsd?: number } }[]): number {
  return runs.reduce((sum, run) => sum + (run.usage?.costUsd ?? 0), 0);
}

import type { LanguageModel } from 'ai';
import type { LaneRunInput } from '../lanes/lanePlugin';
import type { LaneManifestInput } from '../model/laneManifest';
import type { LaneResultInput } from '../model/laneResult';
import { runAgentLoop } from './agentLoop';
import { modelCallRetryPolicy, type ApiLaneSettings } from './apiLaneSettings';
import { reviewSystemPrompt, systemPrompt } from './conversation';
import { choosePrice, longestPrefix, withCachePrices, type CacheMultipliers } from './pricing';
import { formatUsd } from '../text/usageText';
import { VerdictInput, agentTools, reviewTools } from './tools';

/** The context window assumed for a model no table lists (and no setting names). */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

export interface ApiLaneRun {
  manifest: Pick<LaneManifestInput, 'id' | 'price' | 'modelPrices' | 'contextWindow' | 'modelContextWindows'>;
  /** The durable call's name for a model call, e.g. `anthropic.messages`. */
  callName: string;
  modelId: string;
  model: LanguageModel;
  settings: ApiLaneSettings;
  /** Anthropic prompt caching: the cache's lifetime, or `off`; absent for a provider without breakpoints. */
  promptCache?: 'off' | '5m' | '1h';
  /** The provider's cache prices relative to the input price, for a price table that lists none. */
  cacheMultipliers?: CacheMultipliers;
}

/** The model's context window: the project's setting, the lane's table (exact id or prefix), its default, 32768. */
export function chooseContextWindow(
  modelId: string,
  manifest: ApiLaneRun['manifest'],
  override?: number,
): { window: number; source: string; warning?: string } {
  if (override) return { window: override, source: 'project setting "contextWindow"' };
  const table = manifest.modelContextWindows ?? {};
  const id = longestPrefix(modelId, table);
  if (id) return { window: table[id]!, source: `the lane's table (${id})` };
  const window = manifest.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  return {
    window,
    source: 'default',
    warning: `model ${modelId} is not in the lane's context-window table: assuming ${window} tokens; set the lane setting "contextWindow" to the model's own`,
  };
}

/**
 * Runs an API lane's attempt: the agent loop with the standard tools, the
 * lane's price (the project may override it), its budgets and the model-call
 * retry policy. A provider lane only builds the model and calls this.
 */
export async function runApiLane(input: LaneRunInput, run: ApiLaneRun): Promise<LaneResultInput> {
  const { settings } = run;
  const price = choosePrice(run.modelId, run.manifest, settings.price);
  const window = chooseContextWindow(run.modelId, run.manifest, settings.contextWindow);
  const caching = run.promptCache && run.promptCache !== 'off' ? { ttl: run.promptCache } : undefined;
  const prior = input.attempt.taskCostUsd ?? 0;
  input.emit({
    type: 'progress',
    message:
      `${run.manifest.id}: model ${run.modelId}; price from ${price.source}; context window ${window.window} ` +
      `tokens (${window.source}); prompt cache ${caching ? caching.ttl : 'off'}; budget ${settings.maxExecutions} tool calls, ${settings.maxTokens} tokens, task cost cap ` +
      `${formatUsd(settings.maxTaskCostUsd)}${prior ? ` (${formatUsd(prior)} spent by earlier runs)` : ''}`,
  });
  const unpriced =
    !price.price && settings.baseUrl && !isLocal(settings.baseUrl)
      ? `no price for model ${run.modelId} at ${new URL(settings.baseUrl).host}: its cost is counted as $0; set the lane setting "price" (USD per million tokens) for a paid endpoint`
      : undefined;
  for (const warning of [price.warning, window.warning, unpriced])
    if (warning) input.emit({ type: 'progress', message: `warning: ${warning}` });
  const reviewing = input.mode === 'review';
  const toolOptions = { safeCommands: settings.safeCommands, timeoutMs: settings.commandTimeoutMs };
  const outcome = await runAgentLoop(input, {
    model: run.model,
    modelId: run.modelId,
    callName: run.callName,
    system: reviewing ? reviewSystemPrompt(settings.instructions) : systemPrompt(settings.instructions),
    tools: reviewing ? reviewTools(toolOptions) : agentTools(toolOptions),
    maxOutputTokens: settings.maxOutputTokens,
    streamIdleTimeoutMs: settings.streamIdleTimeoutMs,
    price: price.price && withCachePrices(price.price, run.cacheMultipliers),
    contextWindow: window.window,
    ...(caching ? { promptCache: caching } : {}),
    budget: {
      maxExecutions: settings.maxExecutions,
      maxTokens: settings.maxTokens,
      maxTaskCostUsd: settings.maxTaskCostUsd,
      priorTaskCostUsd: prior,
    },
    retry: modelCallRetryPolicy(settings),
  });
  if (outcome.status === 'failed')
    return { status: 'failed', failureReason: outcome.reason, failureCode: outcome.code };
  if (!reviewing) return { status: 'succeeded', summary: outcome.summary };
  const verdict = VerdictInput.safeParse(outcome.ending);
  // A review that ends without calling verdict has no verdict: the host reports that.
  return verdict.success
    ? { status: 'succeeded', summary: outcome.summary, review: verdict.data }
    : { status: 'succeeded', summary: outcome.summary };
}

/** A server on this machine (a local model costs nothing per token). */
function isLocal(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

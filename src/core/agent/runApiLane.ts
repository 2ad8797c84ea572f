import type { LanguageModel } from 'ai';
import type { LaneRunInput } from '../lanes/lanePlugin';
import type { LaneManifestInput } from '../model/laneManifest';
import type { LaneResultInput } from '../model/laneResult';
import { runAgentLoop } from './agentLoop';
import { modelCallRetryPolicy, type ApiLaneSettings } from './apiLaneSettings';
import { reviewSystemPrompt, systemPrompt } from './conversation';
import { choosePrice, formatUsd } from './pricing';
import { VerdictInput, agentTools, reviewTools } from './tools';

export interface ApiLaneRun {
  manifest: Pick<LaneManifestInput, 'id' | 'price' | 'modelPrices'>;
  /** The durable call's name for a model call, e.g. `anthropic.messages`. */
  callName: string;
  modelId: string;
  model: LanguageModel;
  settings: ApiLaneSettings;
}

/**
 * Runs an API lane's attempt: the agent loop with the standard tools, the
 * lane's price (the project may override it), its budgets and the model-call
 * retry policy. A provider lane only builds the model and calls this.
 */
export async function runApiLane(input: LaneRunInput, run: ApiLaneRun): Promise<LaneResultInput> {
  const { settings } = run;
  const price = choosePrice(run.modelId, run.manifest, settings.price);
  const prior = input.attempt.taskCostUsd ?? 0;
  input.emit({
    type: 'progress',
    message:
      `${run.manifest.id}: model ${run.modelId}; price from ${price.source}; budget ` +
      `${settings.maxExecutions} tool calls, ${settings.maxTokens} tokens, task cost cap ` +
      `${formatUsd(settings.maxTaskCostUsd)}${prior ? ` (${formatUsd(prior)} spent by earlier runs)` : ''}`,
  });
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
    price: price.price,
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

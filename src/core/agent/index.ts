/**
 * The agent loop of the API lanes and its tools. A provider lane builds a
 * model with its provider library and calls `runApiLane`; the loop, the
 * tools, budgets, prices and retries are the same for every provider.
 */
export { runApiLane, type ApiLaneRun } from './runApiLane';
export { runAgentLoop, type AgentLoopOptions, type AgentOutcome } from './agentLoop';
export { ApiLaneSettings, API_LANE_SETTING_DOCS, parseLaneSettings, modelCallRetryPolicy } from './apiLaneSettings';
export { agentTools } from './tools';
export { ToolError, type AgentTool, type ToolContext, type ToolOutput } from './agentTool';
export { resolveInWorkspace } from './workspacePath';
export { choosePrice, usageWithCost } from './pricing';
export { ProviderError, toProviderError } from './providerError';

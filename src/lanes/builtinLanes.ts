import { createAnthropicLane } from '../../plugins/anthropic';
import { createClaudeCodeLane } from '../../plugins/claude-code';
import { createCodexLane } from '../../plugins/codex';
import { createCommandLane } from '../../plugins/command';
import { createCursorAgentLane } from '../../plugins/cursor-agent';
import { createOpenAICompatibleLane } from '../../plugins/openai-compatible';
import type { LanePlugin } from '../api';
import { LaneRegistry } from '../core/lanes/laneRegistry';
import type { LaneManifest } from '../core/model/laneManifest';

/** The lanes that ship with Switchyard. */
export function builtinLanes(): LanePlugin[] {
  return [
    createCommandLane(),
    createAnthropicLane(),
    createOpenAICompatibleLane(),
    createClaudeCodeLane(),
    createCodexLane(),
    createCursorAgentLane(),
  ];
}

export function registryWithBuiltins(): LaneRegistry {
  const registry = new LaneRegistry();
  for (const lane of builtinLanes()) registry.register(lane);
  return registry;
}

/** The built-in lanes' manifests, validated (defaults filled in), for the settings schemas. */
export function builtinLaneManifests(): LaneManifest[] {
  return registryWithBuiltins()
    .list()
    .map((l) => l.manifest);
}

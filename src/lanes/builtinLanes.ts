import { anthropicLaneManifest } from '../../plugins/anthropic/manifest';
import { claudeCodeManifest } from '../../plugins/claude-code/manifest';
import { codexManifest } from '../../plugins/codex/manifest';
import { commandLaneManifest } from '../../plugins/command/manifest';
import { cursorAgentManifest } from '../../plugins/cursor-agent/manifest';
import { openaiCompatibleLaneManifest } from '../../plugins/openai-compatible/manifest';
import type { LanePlugin } from '../api';
import { LaneRegistry } from '../core/lanes/laneRegistry';
import type { LaneManifest } from '../core/model/laneManifest';
import { lazyLane } from './lazyLane';
import { loadModule } from './loadModule';

/**
 * The lanes that ship with Switchyard. Each is its manifest (what `lanes`, the settings schemas and routing read) and
 * its code, loaded on its first `run` or `readiness` call: a process that never runs an API lane never evaluates the
 * AI SDK, and one that never runs a CLI lane never builds its stream schemas.
 */
export function builtinLanes(): LanePlugin[] {
  return [
    lazyLane(commandLaneManifest, false, createCommandLane),
    lazyLane(anthropicLaneManifest, false, createAnthropicLane),
    lazyLane(openaiCompatibleLaneManifest, true, createOpenAICompatibleLane),
    lazyLane(claudeCodeManifest, true, createClaudeCodeLane),
    lazyLane(codexManifest, true, createCodexLane),
    lazyLane(cursorAgentManifest, true, createCursorAgentLane),
  ];
}

// The lanes' code. Each module is named twice, for `loadModule`: esbuild bundles the modules a call names literally.
async function createCommandLane(): Promise<LanePlugin> {
  const lane = await loadModule(
    () => require('../../plugins/command'),
    () => import('../../plugins/command'),
  );
  return lane.createCommandLane();
}

async function createAnthropicLane(): Promise<LanePlugin> {
  const lane = await loadModule(
    () => require('../../plugins/anthropic'),
    () => import('../../plugins/anthropic'),
  );
  return lane.createAnthropicLane();
}

async function createOpenAICompatibleLane(): Promise<LanePlugin> {
  const lane = await loadModule(
    () => require('../../plugins/openai-compatible'),
    () => import('../../plugins/openai-compatible'),
  );
  return lane.createOpenAICompatibleLane();
}

async function createClaudeCodeLane(): Promise<LanePlugin> {
  const lane = await loadModule(
    () => require('../../plugins/claude-code'),
    () => import('../../plugins/claude-code'),
  );
  return lane.createClaudeCodeLane();
}

async function createCodexLane(): Promise<LanePlugin> {
  const lane = await loadModule(
    () => require('../../plugins/codex'),
    () => import('../../plugins/codex'),
  );
  return lane.createCodexLane();
}

async function createCursorAgentLane(): Promise<LanePlugin> {
  const lane = await loadModule(
    () => require('../../plugins/cursor-agent'),
    () => import('../../plugins/cursor-agent'),
  );
  return lane.createCursorAgentLane();
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

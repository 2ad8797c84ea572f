import assert from 'node:assert/strict';
import { createAnthropicLane } from '../../../plugins/anthropic';
import { createClaudeCodeLane } from '../../../plugins/claude-code';
import { createCodexLane } from '../../../plugins/codex';
import { createCommandLane } from '../../../plugins/command';
import { createCursorAgentLane } from '../../../plugins/cursor-agent';
import { createOpenAICompatibleLane } from '../../../plugins/openai-compatible';
import type { LanePlugin } from '../../../src/api';
import { builtinLanes } from '../../../src/lanes/builtinLanes';
import { lazyLane } from '../../../src/lanes/lazyLane';

describe('built-in lanes load their code on first use', () => {
  it('each is the plugin itself: the same manifest, and a readiness check exactly when the plugin has one', () => {
    const plugins = [
      createCommandLane(),
      createAnthropicLane(),
      createOpenAICompatibleLane(),
      createClaudeCodeLane(),
      createCodexLane(),
      createCursorAgentLane(),
    ];
    const lazy = builtinLanes();
    assert.deepEqual(
      lazy.map((l) => l.manifest.id),
      plugins.map((p) => p.manifest.id),
    );
    for (const [i, lane] of lazy.entries()) {
      assert.equal(lane.manifest, plugins[i]!.manifest, `${lane.manifest.id}: the plugin's own manifest object`);
      assert.equal(typeof lane.readiness, typeof plugins[i]!.readiness, `${lane.manifest.id}: readiness`);
    }
  });

  it('loads the plugin once, on the first call, and again after a failed load', async () => {
    const real = createCommandLane();
    let loads = 0;
    let fail = true;
    const lane = lazyLane(real.manifest, true, async () => {
      loads += 1;
      if (fail) throw new Error('cannot load');
      return { ...real, readiness: async () => ({ ready: false, reason: 'not today' }) } satisfies LanePlugin;
    });
    assert.equal(loads, 0, 'nothing loaded by creating it');
    await assert.rejects(lane.readiness!({ settings: {}, secrets: {} } as never), /cannot load/);
    fail = false;
    assert.deepEqual(await lane.readiness!({ settings: {}, secrets: {} } as never), {
      ready: false,
      reason: 'not today',
    });
    await lane.readiness!({ settings: {}, secrets: {} } as never);
    assert.equal(loads, 2, 'the failed load and one more');
  });
});

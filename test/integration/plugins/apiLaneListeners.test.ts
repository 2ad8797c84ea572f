import assert from 'node:assert/strict';
import { API_LANES, apiLaneProject } from './apiLaneHarness';

/**
 * A long API-lane run adds no abort listener per call: 15 tool calls
 * (16 model calls) on one run print no MaxListenersExceededWarning.
 */
for (const c of API_LANES) {
  describe(`${c.lane} lane: no listener leak over many calls`, function () {
    this.timeout(60_000);

    it('15 tool calls in one run: no MaxListenersExceededWarning', async () => {
      const TOOL_CALLS = 15;
      const script = [
        ...Array.from({ length: TOOL_CALLS }, () => ({
          turn: { tools: [{ name: 'list_dir', input: {} }] },
          usage: { input: 10, output: 1 },
        })),
        { turn: { tools: [{ name: 'finish', input: { summary: 'looked around' } }] }, usage: { input: 10, output: 1 } },
      ];
      const warnings: Error[] = [];
      const onWarning = (w: Error): void => {
        warnings.push(w);
      };
      process.on('warning', onWarning);
      const t = await apiLaneProject(c, script);
      try {
        await t.project.tasks.add({ title: 'Look around', spec: 'List the files many times.' });
        await t.project.runQueue();
        const state = await t.project.state();
        assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
        assert.equal(t.server.requests.length, TOOL_CALLS + 1);
        // Warnings are emitted on the next tick.
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(
          warnings.map((w) => `${w.name}: ${w.message}`),
          [],
        );
      } finally {
        process.off('warning', onWarning);
        await t.cleanup();
      }
    });
  });
}

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { anthropicServer, PromptCache } from '../../fixtures/anthropicServer';
import type { ScriptStep } from '../../fixtures/scriptedModelServer';
import { API_LANES, apiLaneProject } from './apiLaneHarness';

const [anthropic, openai] = API_LANES;

/** The blocks of a Messages request that carry a cache breakpoint, named by where they are. */
function breakpoints(body: any): string[] {
  const out: string[] = [];
  for (const [i, tool] of (body.tools ?? []).entries()) if (tool.cache_control) out.push(`tool ${i}`);
  for (const [i, block] of (Array.isArray(body.system) ? body.system : []).entries())
    if (block.cache_control) out.push(`system ${i}`);
  for (const [m, message] of body.messages.entries())
    for (const [i, block] of (Array.isArray(message.content) ? message.content : []).entries())
      if (block.cache_control) out.push(`message ${m}.${i}`);
  return out;
}

const READS: ScriptStep[] = [
  { turn: { tools: [{ name: 'read_file', input: { path: 'src/user.py' } }] }, usage: { input: 0, output: 40 } },
  { turn: { tools: [{ name: 'list_dir', input: { path: '.' } }] }, usage: { input: 0, output: 30 } },
  { turn: { tools: [{ name: 'read_file', input: { path: 'tests/test_user.py' } }] }, usage: { input: 0, output: 35 } },
  { turn: { tools: [{ name: 'finish', input: { summary: 'looked around' } }] }, usage: { input: 0, output: 20 } },
];

describe('Anthropic prompt caching and cache-aware cost', function () {
  this.timeout(30_000);

  it('breakpoints on the tools, the system prompt and the latest messages; each call reads the last one', async () => {
    const cache = new PromptCache();
    const t = await apiLaneProject({ ...anthropic, server: (s) => anthropicServer(s, { cache }) }, READS);
    try {
      await t.project.tasks.add({ title: 'look around' });
      await t.project.runQueue();
      const state = await t.project.state();
      assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
      const bodies = t.server.requests.map((r) => r.body);
      assert.equal(bodies.length, 4);
      for (const [n, body] of bodies.entries()) {
        const marks = breakpoints(body);
        const last = body.messages.length - 1;
        const lastBlock = body.messages[last].content.length - 1;
        const expected = [`tool ${body.tools.length - 1}`, 'system 0'];
        // From the second call on, the previous call's last message too (what this call reads from the cache).
        if (n > 0) {
          const previous = bodies[n - 1].messages.length - 1;
          expected.push(`message ${previous}.${bodies[n - 1].messages[previous].content.length - 1}`);
        }
        expected.push(`message ${last}.${lastBlock}`);
        assert.deepEqual(marks, expected, `request ${n + 1}`);
        assert.ok(marks.length <= 4);
        assert.deepEqual(body.system[0].cache_control, { type: 'ephemeral' });
      }
      const [first, ...rest] = cache.usages;
      assert.equal(first!.cache_read_input_tokens, 0, 'nothing to read on the first call');
      assert.ok(first!.cache_creation_input_tokens! > 1_024, 'the first call writes tools + system + task');
      for (const [n, usage] of rest.entries()) {
        const before = cache.usages[n]!;
        assert.equal(
          usage.cache_read_input_tokens,
          before.cache_read_input_tokens! + before.cache_creation_input_tokens!,
          `call ${n + 2} reads everything the previous call cached`,
        );
        assert.ok(usage.cache_creation_input_tokens! > 0, 'and writes what it added');
      }

      // The recorded usage is the server's, split; the cost is the formula over it (Sonnet 4.5: $3 input, $3.75
      // 5-minute write, $0.30 read, $15 output per million tokens).
      const run = state.runs[0]!;
      const sum = (f: (u: (typeof cache.usages)[0]) => number) => cache.usages.reduce((n, u) => n + f(u), 0);
      const read = sum((u) => u.cache_read_input_tokens!);
      const write = sum((u) => u.cache_creation_input_tokens!);
      const uncached = sum((u) => u.input_tokens);
      const output = 40 + 30 + 35 + 20;
      assert.deepEqual(
        { ...run.usage, costUsd: 0 },
        {
          inputTokens: read + write + uncached,
          outputTokens: output,
          cacheReadTokens: read,
          cacheWriteTokens: write,
          costUsd: 0,
        },
      );
      const cost = (uncached * 3 + write * 3.75 + read * 0.3 + output * 15) / 1e6;
      assert.ok(Math.abs(run.usage!.costUsd - cost) < 1e-12, `${run.usage!.costUsd} vs ${cost}`);

      // The run log: each call's split and cache share.
      const notes = t
        .laneEvents()
        .filter((e) => e.type === 'progress')
        .map((e) => String(e.message));
      const calls = notes.filter((m) => m.startsWith('model call '));
      assert.equal(calls.length, 4);
      const u2 = cache.usages[1]!;
      const total2 = u2.input_tokens + u2.cache_read_input_tokens! + u2.cache_creation_input_tokens!;
      assert.match(
        calls[1]!,
        new RegExp(
          `^model call 2: ${total2}\\+30 tokens \\(${u2.cache_read_input_tokens} cache read ` +
            `\\(${Math.round((u2.cache_read_input_tokens! / total2) * 100)}%\\), ${u2.cache_creation_input_tokens} ` +
            `cache write, ${u2.input_tokens} uncached\\), \\$0\\.\\d{4}$`,
        ),
      );
      assert.match(notes[0]!, /context window 200000 tokens \(the lane's table \(claude-\)\); prompt cache 5m/);
    } finally {
      await t.cleanup();
    }
  });

  it('promptCache "off" sends no breakpoint and pays every prompt token at the input price', async () => {
    const cache = new PromptCache();
    const t = await apiLaneProject({ ...anthropic, server: (s) => anthropicServer(s, { cache }) }, READS, {
      promptCache: 'off',
    });
    try {
      await t.project.tasks.add({ title: 'look around' });
      await t.project.runQueue();
      const run = (await t.project.state()).runs[0]!;
      for (const r of t.server.requests) assert.deepEqual(breakpoints(r.body), []);
      assert.ok(cache.usages.every((u) => u.cache_read_input_tokens === 0 && u.cache_creation_input_tokens === 0));
      const input = cache.usages.reduce((n, u) => n + u.input_tokens, 0);
      assert.equal(run.usage!.inputTokens, input);
      assert.equal(run.usage!.cacheReadTokens, 0);
      assert.ok(Math.abs(run.usage!.costUsd - (input * 3 + 125 * 15) / 1e6) < 1e-12);
    } finally {
      await t.cleanup();
    }
  });

  it('promptCache "1h" marks the 1-hour cache and prices its writes at 2× the input price', async () => {
    const cache = new PromptCache();
    const t = await apiLaneProject({ ...anthropic, server: (s) => anthropicServer(s, { cache }) }, READS.slice(2), {
      promptCache: '1h',
    });
    try {
      await t.project.tasks.add({ title: 'look around' });
      await t.project.runQueue();
      const run = (await t.project.state()).runs[0]!;
      assert.deepEqual(t.server.requests[0]!.body.system[0].cache_control, { type: 'ephemeral', ttl: '1h' });
      const write = cache.usages.reduce((n, u) => n + u.cache_creation_input_tokens!, 0);
      const read = cache.usages.reduce((n, u) => n + u.cache_read_input_tokens!, 0);
      const uncached = cache.usages.reduce((n, u) => n + u.input_tokens, 0);
      const cost = (uncached * 3 + write * 6 + read * 0.3 + 55 * 15) / 1e6;
      assert.ok(Math.abs(run.usage!.costUsd - cost) < 1e-12, `${run.usage!.costUsd} vs ${cost}`);
    } finally {
      await t.cleanup();
    }
  });

  it("openai-compatible: the server's cached_tokens are recorded, priced at the cached-input price", async () => {
    const t = await apiLaneProject(
      openai,
      [
        { turn: { tools: [{ name: 'list_dir', input: { path: '.' } }] }, usage: { input: 2_000, output: 50 } },
        {
          turn: { tools: [{ name: 'finish', input: { summary: 'ok' } }] },
          usage: { input: 2_400, output: 10, cached: 1_920 },
        },
      ],
      { price: { inputPerMTokUsd: 2, outputPerMTokUsd: 8, cacheReadPerMTokUsd: 0.5 } },
    );
    try {
      await t.project.tasks.add({ title: 'x' });
      await t.project.runQueue();
      const run = (await t.project.state()).runs[0]!;
      assert.equal(run.usage!.inputTokens, 4_400);
      assert.equal(run.usage!.cacheReadTokens, 1_920);
      const cost = ((4_400 - 1_920) * 2 + 1_920 * 0.5 + 60 * 8) / 1e6;
      assert.ok(Math.abs(run.usage!.costUsd - cost) < 1e-12, `${run.usage!.costUsd} vs ${cost}`);
      const notes = t.laneEvents().filter((e) => e.type === 'progress');
      assert.ok(notes.some((e) => String(e.message).startsWith('model call 2: 2400+10 tokens (1920 cache read (80%)')));
      // A model the lane's table does not know: the default window, and a warning that says how to set it.
      assert.ok(
        notes.some(
          (e) =>
            e.message ===
            'warning: model test-model is not in the lane\'s context-window table: assuming 32768 tokens; set the lane setting "contextWindow" to the model\'s own',
        ),
      );
    } finally {
      await t.cleanup();
    }
  });

  for (const window of [1_000_000, 4_096])
    it(`a server with a 4096-token window and a lane told the window is ${window}: ${
      window === 4_096 ? 'compacted, done' : '"prompt is too long"'
    }`, async () => {
      const steps: ScriptStep[] = ['a', 'b', 'c', 'd'].map((name) => ({
        turn: { tools: [{ name: 'read_file', input: { path: `notes/${name}.txt` } }] },
        usage: { input: 0, output: 30 },
      }));
      steps.push({ turn: { tools: [{ name: 'finish', input: { summary: 'read' } }] }, usage: { input: 0, output: 9 } });
      const t = await apiLaneProject(
        { ...anthropic, server: (s) => anthropicServer(s, { contextWindow: 4_096 }) },
        steps,
        { contextWindow: window },
      );
      try {
        await mkdir(join(t.repo.dir, 'notes'));
        for (const name of ['a', 'b', 'c', 'd'])
          await writeFile(join(t.repo.dir, 'notes', `${name}.txt`), `${name} `.repeat(1_500));
        await t.repo.git('add', '.').then(() => t.repo.git('commit', '-m', 'notes'));
        await t.project.tasks.add({ title: 'read the notes' });
        await t.project.runQueue();
        const state = await t.project.state();
        if (window === 4_096) {
          assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
          assert.equal(t.server.requests.length, 5);
          const notes = t.laneEvents().filter((e) => String(e.message).startsWith('context compacted'));
          assert.ok(notes.length >= 1);
        } else {
          assert.equal(state.runs[0]!.failureCode, 'provider-rejected');
          assert.match(state.tasks[0]!.failureReason!, /prompt is too long: \d+ tokens > 4096 maximum/);
        }
      } finally {
        await t.cleanup();
      }
    });

  for (const [key, value, why] of [
    ['price', { inputPerMTokUsd: 3, outputPerMTokUsd: 15, cacheReadPerMTokUsd: -1 }, /price\.cacheReadPerMTokUsd/],
    ['price', { inputPerMTokUsd: 3, outputPerMTokUsd: 15, cacheReadPrice: 1 }, /price.*cacheReadPrice/],
    ['contextWindow', 'big', /contextWindow/],
    ['promptCache', 'always', /promptCache must be "5m", "1h" or "off"/],
  ] as const)
    it(`a malformed ${key} setting (${JSON.stringify(value)}) is a configuration error naming it`, async () => {
      const t = await apiLaneProject(anthropic, [], { [key]: value });
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        const state = await t.project.state();
        assert.equal(state.runs[0]!.failureCode, 'lane-misconfigured');
        assert.match(state.tasks[0]!.failureReason!, why);
        assert.match(state.tasks[0]!.failureReason!, /switchyard lanes set anthropic/);
        assert.equal(t.server.requests.length, 0);
      } finally {
        await t.cleanup();
      }
    });
});

import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { anthropicServer, PromptCache } from '../../fixtures/anthropicServer';
import type { ScriptStep } from '../../fixtures/scriptedModelServer';
import { API_LANES, apiLaneProject, killGroup, runCli, sharedCliBundle } from './apiLaneHarness';

const [anthropic] = API_LANES;

const read = (path: string): ScriptStep => ({
  turn: { tools: [{ name: 'read_file', input: { path } }] },
  usage: { input: 0, output: 50 },
});

/**
 * The anthropic lane in the real CLI with prompt caching and a small context window: SIGKILLed while the fourth model
 * response streams (after the conversation was compacted for it), then resumed by a new `switchyard resume` process.
 */
describe('anthropic lane with prompt caching killed mid-session (real SIGKILL) and resumed', function () {
  this.timeout(90_000);

  it('cache tokens and cost are counted once; the compacted request is re-sent exactly', async () => {
    const cli = await sharedCliBundle();
    const cache = new PromptCache();
    const t = await apiLaneProject(
      { ...anthropic, server: (s) => anthropicServer(s, { cache, contextWindow: 4_096 }) },
      [
        read('notes/a.txt'),
        read('notes/b.txt'),
        read('notes/c.txt'),
        { hang: true },
        {
          turn: { tools: [{ name: 'finish', input: { summary: 'read the notes' } }] },
          usage: { input: 0, output: 20 },
        },
      ],
      { contextWindow: 4_096 },
    );
    try {
      await mkdir(join(t.repo.dir, 'notes'));
      for (const name of ['a', 'b', 'c'])
        await writeFile(join(t.repo.dir, 'notes', `${name}.txt`), `${name} `.repeat(1_500));
      await t.repo.git('add', '.').then(() => t.repo.git('commit', '-m', 'notes'));
      await t.project.settings.update((s) => {
        s.leaseMs = 60_000;
      });
      await t.project.tasks.add({ title: 'read the notes' });
      const env = { ANTHROPIC_API_KEY: anthropic.key };

      let first: ReturnType<typeof runCli> | undefined;
      t.server.onRequest = (request) => {
        if (request.index === 3) setImmediate(() => killGroup(first!));
      };
      first = runCli(cli, t.repo.dir, ['run'], env);
      const killed = await first;
      assert.equal(killed.signal, 'SIGKILL', `killed mid-stream (${killed.stdout} ${killed.stderr})`);
      t.server.onRequest = undefined;

      const resumed = await runCli(cli, t.repo.dir, ['resume'], env);
      assert.equal(resumed.exitCode, 0, resumed.stderr);
      const state = JSON.parse(await readFile(join(t.repo.dir, '.switchyard', 'state.json'), 'utf8'));
      assert.equal(state.tasks[0].state, 'DONE', state.tasks[0].failureReason);
      const run = state.runs[0];
      assert.equal(state.runs.length, 1);
      assert.deepEqual(run.resumeCounts, { replayed: 6, resent: 1, rerun: 0, uncertain: 0 });

      // The interrupted call was compacted, and the resumed process rebuilt and re-sent exactly that request.
      const bodies = t.server.requests.map((r) => r.body);
      assert.equal(bodies.length, 5);
      assert.deepEqual(bodies[4], bodies[3], 'the re-sent request is the interrupted one, breakpoints included');
      assert.ok(bodies[3].messages.length < bodies[2].messages.length + 2, 'the fourth request was compacted');
      const log = await readFile(join(t.repo.dir, '.switchyard', 'runs', 't1.1', 'events.jsonl'), 'utf8').catch(
        () => '',
      );
      const compactions = (log.match(/context compacted before model call 4: ~\d+ → ~\d+ prompt tokens/g) ?? []).length;
      assert.equal(compactions >= 1, true, 'the run log records the compaction with its tokens before and after');

      // The server answered four calls (the hung one never reported usage): the run's usage is exactly theirs, once.
      assert.equal(cache.usages.length, 4);
      const sum = (f: (u: (typeof cache.usages)[0]) => number) => cache.usages.reduce((n, u) => n + f(u), 0);
      const readTokens = sum((u) => u.cache_read_input_tokens!);
      const written = sum((u) => u.cache_creation_input_tokens!);
      const uncached = sum((u) => u.input_tokens);
      assert.ok(readTokens > 0);
      assert.deepEqual(
        {
          i: run.usage.inputTokens,
          r: run.usage.cacheReadTokens,
          w: run.usage.cacheWriteTokens,
          o: run.usage.outputTokens,
        },
        { i: readTokens + written + uncached, r: readTokens, w: written, o: 50 * 3 + 20 },
      );
      const cost = (uncached * 3 + written * 3.75 + readTokens * 0.3 + 170 * 15) / 1e6;
      assert.ok(Math.abs(run.usage.costUsd - cost) < 1e-12, `${run.usage.costUsd} vs ${cost}`);
      // `status` and `log` show the split and the cache share.
      const status = await runCli(cli, t.repo.dir, ['status'], env);
      const share = Math.round((readTokens / (readTokens + written + uncached)) * 100);
      assert.ok(
        status.stdout.includes(
          `${readTokens + written + uncached}+170 tokens (${readTokens} cache read (${share}%), ${written} cache write, ${uncached} uncached)`,
        ),
        status.stdout,
      );
      const shown = await runCli(cli, t.repo.dir, ['log', 't1.1'], env);
      const call1 = cache.usages[0]!;
      assert.ok(
        shown.stdout.includes(
          `model call 1: ${call1.cache_creation_input_tokens! + call1.input_tokens}+50 tokens (0 cache read (0%), ` +
            `${call1.cache_creation_input_tokens} cache write, ${call1.input_tokens} uncached)`,
        ),
        shown.stdout,
      );
      assert.match(shown.stdout, /context compacted before model call 4: ~\d+ → ~\d+ prompt tokens \(window 4096;/);

      // The journal's model outcomes carry the split, and the replayed ones were not counted again.
      const journal = (await t.journal()).filter((e) => e.type === 'outcome' && e.usage);
      assert.equal(journal.length, 4);
      assert.equal(
        journal.reduce((n, e) => n + e.usage.cacheReadTokens, 0),
        readTokens,
      );
    } finally {
      await t.cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createClaudeCodeLane } from '../../../../plugins/claude-code';
import type { LaneEvent, LaneResult, LaneRunInput, Usage } from '../../../../src/api';
import { anthropicServer } from '../../../fixtures/anthropicServer';
import type { ScriptStep, ScriptedModelServer } from '../../../fixtures/scriptedModelServer';
import { makeTempDir } from '../../../helpers/tempRepo';
import { until } from '../../../helpers/until';
import { CLAUDE_VERSION, PASS_ENV, claudeEnv, processesIn, writeTurns } from './realClaudeSetup';

// Fake, assembled from parts so no secret scanner takes it for a real key.
const KEY = ['sk', 'ant', 'test', '0123456789abcdef'].join('-');
/** Claude Code 2.1.332's price for its default model, as it reports it in `modelUsage` (USD per token). */
const PRICE = { input: 4e-6, output: 20e-6 };

/**
 * The claude-code lane run directly (no engine) with the real claude CLI
 * against the scripted Messages server, each CLI process in the same
 * directory, so the lane resumes the session: what each process records is
 * what the server answered it, counted once. Claude Code's
 * `result.modelUsage` and `total_cost_usd` are the SESSION's running totals
 * (a resumed process starts from the totals the transcript's last
 * `cost-state` line kept), its `result.usage` the process's own.
 */
describe(`claude-code lane with the real claude ${CLAUDE_VERSION}: usage of a resumed session`, function () {
  this.timeout(90_000);
  const binary = realpathSync(resolve('node_modules/.bin/claude'));
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let server: ScriptedModelServer | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    for (const pid of processesIn(tmp.dir))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    await server?.stop();
    server = undefined;
    await tmp.cleanup();
  });

  async function setup(script: ScriptStep[], writes: Record<number, { file: string; content: string }>) {
    server = await anthropicServer(script);
    writeTurns(server, script, writes);
    const dir = join(tmp.dir, 'work');
    await mkdir(dir);
    const env = { PATH: process.env.PATH ?? '', ...claudeEnv(tmp.dir, server.url, 0) };
    const lane = createClaudeCodeLane();
    const run = async (
      runId: string,
      resume: LaneRunInput['resume'],
      signal = new AbortController().signal,
    ): Promise<{ result: LaneResult; events: LaneEvent[]; usage: Usage }> => {
      const events: LaneEvent[] = [];
      const saved = { ...process.env };
      // passEnv reads the host's own environment.
      Object.assign(process.env, env);
      try {
        const result = await lane.run({
          task: { id: 't1', title: 'Write the files', spec: 'Write the files', files: [] },
          workspaceDir: dir,
          env,
          attempt: { runId, attempt: 1 },
          ...(resume ? { resume } : {}),
          settings: { binary, passEnv: PASS_ENV },
          secrets: { ANTHROPIC_API_KEY: KEY },
          signal,
          emit: (e) => void events.push(e as LaneEvent),
          call: () => Promise.reject(new Error('no durable calls')),
        });
        return { result: result as LaneResult, events, usage: sum(events) };
      } finally {
        for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
        Object.assign(process.env, saved);
      }
    };
    return { dir, env, run, server };
  }

  /** What the server answered requests `from`..`to` (their scripted usage), priced as Claude Code prices it. */
  function served(script: ScriptStep[], from: number, to: number): Usage {
    let inputTokens = 0;
    let outputTokens = 0;
    for (const step of script.slice(from, to + 1)) {
      if (!('turn' in step)) continue;
      inputTokens += step.usage?.input ?? 100;
      outputTokens += step.usage?.output ?? 20;
    }
    return { inputTokens, outputTokens, costUsd: inputTokens * PRICE.input + outputTokens * PRICE.output };
  }

  it('a session resumed after a finished process: the second process records its own calls only', async () => {
    const script: ScriptStep[] = [
      { turn: {}, usage: { input: 1_000, output: 10 } },
      { turn: { text: 'one is written' }, usage: { input: 1_100, output: 11 } },
      { turn: {}, usage: { input: 2_000, output: 20 } },
      { turn: { text: 'two is written' }, usage: { input: 2_100, output: 21 } },
    ];
    const t = await setup(script, {
      0: { file: 'one.txt', content: 'one\n' },
      2: { file: 'two.txt', content: 'two\n' },
    });
    const first = await t.run('t1.1', undefined);
    assert.equal(first.result.status, 'succeeded', first.result.failureReason);
    assertUsage(first.usage, served(script, 0, 1));
    const second = await t.run('t1.2', { runId: 't1.1', sessionId: first.result.sessionId, sessionCwd: t.dir });
    assert.equal(second.result.status, 'succeeded', second.result.failureReason);
    assert.equal(second.result.sessionId, first.result.sessionId, 'the session was resumed (same directory)');
    assert.match(JSON.stringify(t.server.requests[2]!.body.messages), /"id":"toolu_0_0"/, 'with its history');
    assertUsage(second.usage, served(script, 2, 3));
  });

  it('a process stopped (SIGTERM) while a call hangs, then resumed: the stopped call costs nothing, every answered call is counted once across both processes', async () => {
    const script: ScriptStep[] = [
      { turn: {}, usage: { input: 1_000, output: 10 } },
      { hang: true },
      { turn: {}, usage: { input: 2_000, output: 20 } },
      { turn: { text: 'two is written' }, usage: { input: 2_100, output: 21 } },
    ];
    const t = await setup(script, {
      0: { file: 'one.txt', content: 'one\n' },
      2: { file: 'two.txt', content: 'two\n' },
    });
    const stop = new AbortController();
    const stopped = t.run('t1.1', undefined, stop.signal);
    await until('the second call (which hangs)', () => t.server.requests.length >= 2, 30_000);
    // Claude Code has the Write and its result in its transcript (it flushes on its own schedule).
    await until(
      "the Write's result in the session transcript",
      async () => (await transcripts(tmp.dir)).some((text) => text.includes('"tool_use_id":"toolu_0_0"')),
      15_000,
    );
    stop.abort();
    const first = await stopped;
    assert.equal(first.result.status, 'failed');
    const session = first.events.find((e) => e.type === 'session');
    assert.ok(session && session.type === 'session');
    const second = await t.run('t1.2', { runId: 't1.1', sessionId: session.sessionId, sessionCwd: t.dir });
    assert.equal(second.result.status, 'succeeded', second.result.failureReason);
    // The stopped process: its one answered call as served (its message_delta gives the final output; no result),
    // priced by the lane at the model the server names (claude-sonnet-4-5: $3 / $15 per million tokens).
    assertUsage(first.usage, { inputTokens: 1_000, outputTokens: 10, costUsd: (1_000 * 3 + 10 * 15) / 1e6 });
    // The resumed one: its own two calls, whatever totals the stopped one left in the transcript.
    assertUsage(second.usage, served(script, 2, 3));
  });
});

/** The lane's usage events, summed. */
function sum(events: LaneEvent[]): Usage {
  const total = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  for (const e of events) {
    if (e.type !== 'usage') continue;
    total.inputTokens += e.usage.inputTokens ?? 0;
    total.outputTokens += e.usage.outputTokens ?? 0;
    total.costUsd += e.usage.costUsd ?? 0;
  }
  return total;
}

function assertUsage(actual: Usage, expected: Usage): void {
  assert.deepEqual(
    { inputTokens: actual.inputTokens, outputTokens: actual.outputTokens },
    { inputTokens: expected.inputTokens, outputTokens: expected.outputTokens },
  );
  assert.ok(
    Math.abs((actual.costUsd ?? 0) - (expected.costUsd ?? 0)) < 1e-9,
    `cost ${actual.costUsd} recorded, ${expected.costUsd} for what the server answered`,
  );
}

async function transcripts(home: string): Promise<string[]> {
  const root = join(home, '.claude', 'projects');
  const files = (await readdir(root, { recursive: true }).catch(() => [] as string[])).filter((f) =>
    String(f).endsWith('.jsonl'),
  );
  return Promise.all(files.map((f) => readFile(join(root, String(f)), 'utf8').catch(() => '')));
}

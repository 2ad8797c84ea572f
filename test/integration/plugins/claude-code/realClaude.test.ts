import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { classify } from '../../../../src/core/retry/classifyError';
import { anthropicServer } from '../../../fixtures/anthropicServer';
import type { ScriptStep, ScriptedModelServer } from '../../../fixtures/scriptedModelServer';
import { cliLaneProject, laneEvents } from '../../../helpers/cliLaneProject';
import { makeTempDir } from '../../../helpers/tempRepo';
import { CLAUDE_VERSION, PASS_ENV, claudeEnv, processesIn, writeTurns } from './realClaudeSetup';

// Fake, assembled from parts so no secret scanner takes it for a real key.
const KEY = ['sk', 'ant', 'test', '0123456789abcdef'].join('-');

/**
 * The real Claude Code CLI (npm @anthropic-ai/claude-code, pinned; its
 * native binary) through the claude-code lane in a real Switchyard run,
 * against the project's scripted Anthropic Messages server on 127.0.0.1.
 * The stream format these tests rely on was checked against CLAUDE_VERSION.
 */
describe(`claude-code lane with the real claude ${CLAUDE_VERSION} (scripted Messages server on 127.0.0.1)`, function () {
  this.timeout(60_000);
  const binary = realpathSync(resolve('node_modules/.bin/claude'));
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let ctx: Awaited<ReturnType<typeof cliLaneProject>> | undefined;
  let server: ScriptedModelServer | undefined;
  let saved: NodeJS.ProcessEnv;

  beforeEach(async () => {
    tmp = await makeTempDir();
    saved = { ...process.env };
  });
  afterEach(async () => {
    // passEnv reads the host's own environment: restored after each test.
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    await server?.stop();
    server = undefined;
    await ctx?.repo.cleanup();
    ctx = undefined;
    await tmp.cleanup();
  });

  async function setup(
    script: ScriptStep[],
    writes: Record<number, { file: string; content: string }>,
    options: { maxRetries?: number; extraArgs?: string[]; attempts?: number } = {},
  ) {
    server = await anthropicServer(script);
    writeTurns(server, script, writes);
    const env = claudeEnv(tmp.dir, server.url, options.maxRetries ?? 0);
    Object.assign(process.env, env);
    ctx = await cliLaneProject(
      'claude-code',
      { binary, passEnv: PASS_ENV, ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}) },
      {
        attempts: options.attempts ?? 1,
        parentEnv: { PATH: process.env.PATH, HOME: env.HOME, ANTHROPIC_API_KEY: KEY },
      },
    );
    return { server, ...ctx };
  }

  it("happy path: the CLI writes a file through its Write tool; the diff has it, the usage and cost are the CLI's totals", async () => {
    const { project, server: s } = await setup(
      [{ turn: {} }, { turn: { text: 'Wrote src/health.ts.' }, usage: { input: 300, output: 9 } }],
      { 0: { file: 'src/health.ts', content: 'export const health = (): number => 200;\n' } },
    );
    await project.tasks.add({
      title: 'Add a health check',
      spec: 'Add health() returning 200',
      files: ['src/health.ts'],
      lane: 'claude-code',
    });
    await project.runQueue();
    const state = await project.state();
    const run = state.runs[0]!;
    assert.equal(state.tasks[0]!.state, 'DONE', run.failureReason);
    assert.match(
      await project.runs.diff(run.id),
      /\+\+\+ b\/src\/health\.ts\n@@ .* @@\n\+export const health = \(\): number => 200;/,
    );
    assert.equal(run.summary, 'Wrote src/health.ts.');
    assert.match(run.sessionId ?? '', /^[0-9a-f-]{36}$/);
    // Two API calls: 100 + 300 prompt tokens, 20 + 9 output tokens (message_delta's counts, as the CLI's modelUsage
    // has them).
    assert.equal(run.usage?.inputTokens, 400);
    assert.equal(run.usage?.outputTokens, 29);
    assert.ok((run.usage?.costUsd ?? 0) > 0, `the CLI's own cost is recorded: ${JSON.stringify(run.usage)}`);
    assert.deepEqual(
      s.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`),
      ['POST /v1/messages', 'POST /v1/messages'],
      'only the two Messages calls (non-essential traffic is off)',
    );
    assert.ok(s.requests.every((r) => r.body.stream === true && r.headers['x-api-key'] === KEY));
    const events = await laneEvents(project, run.id);
    assert.ok(events.some((e) => e.type === 'tool-call' && e.name === 'Write'));
  });

  it('429 then 529: the CLI retries each (bounded by CLAUDE_CODE_MAX_RETRIES), the run records its retries and only the paid call', async () => {
    const { project, server: s } = await setup(
      [
        {
          httpError: {
            status: 429,
            type: 'rate_limit_error',
            message: 'Number of request tokens has exceeded your per-minute rate limit',
            headers: { 'retry-after': '0' },
          },
        },
        { httpError: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
        { turn: { text: 'Done.' } },
      ],
      {},
      { maxRetries: 2 },
    );
    await project.tasks.add({ title: 'busy API', lane: 'claude-code' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(s.requests.length, 3);
    const progress = (await laneEvents(project, run.id))
      .filter((e) => e.type === 'progress')
      .map((e) => String(e.message));
    assert.ok(
      progress.some((m) => /^claude retries an API call \(HTTP 429\): attempt 1 of 2 in \d+ ms$/.test(m)),
      JSON.stringify(progress),
    );
    assert.ok(
      progress.some((m) => /^claude retries an API call \(HTTP 529\): attempt 2 of 2 in \d+ ms$/.test(m)),
      JSON.stringify(progress),
    );
    assert.deepEqual([run.usage?.inputTokens, run.usage?.outputTokens], [100, 20], 'the refused calls cost nothing');
  });

  for (const [status, type, rule] of [
    [429, 'rate_limit_error', 'rate-limited'],
    [529, 'overloaded_error', 'overloaded'],
  ] as const) {
    it(`${status} on every try: the run fails with the CLI's API error and its real status, classified ${rule}, and no model text`, async () => {
      const refusal: ScriptStep = { httpError: { status, type, message: `${type} from the test server` } };
      const { project, server: s } = await setup([refusal, refusal], {}, { maxRetries: 1 });
      await project.tasks.add({ title: `always ${status}`, lane: 'claude-code' });
      await project.runQueue();
      const run = (await project.state()).runs[0]!;
      assert.equal(run.state, 'FAILED');
      assert.equal(s.requests.length, 2, 'one try and one retry');
      assert.match(
        run.failureReason ?? '',
        new RegExp(
          `^claude reported: API error \\(HTTP ${status} ${type}\\): API Error: .*${type} from the test server.*; claude exited with code 1`,
        ),
      );
      const verdict = classify(run.failureReason);
      assert.deepEqual([verdict.class, verdict.rule], ['transient', rule]);
      const events = await laneEvents(project, run.id);
      assert.deepEqual(
        events.filter((e) => e.type === 'text'),
        [],
        "the CLI's error message is not the model's text",
      );
    });
  }

  it('a stream cut mid-turn: the CLI keeps the partial answer, asks the model to go on, and the run succeeds counting every call', async () => {
    const { project, server: s } = await setup(
      [{ turn: {}, dropAfterEvents: 8 }, { turn: {} }, { turn: { text: 'Done after the cut.' } }],
      { 0: { file: 'cut.txt', content: 'first try\n' }, 1: { file: 'cut.txt', content: 'second try\n' } },
    );
    await project.tasks.add({ title: 'cut stream', lane: 'claude-code' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(s.requests.length, 3);
    // What 2.1.332 does: it keeps the partial answer and tells the model (a system reminder) to go on from there. It
    // sends that request streaming or, under load, as its non-streaming fallback (seen once in CI): either is fine.
    assert.match(JSON.stringify(s.requests[1]!.body.messages.at(-1)), /Your response above was cut off mid-stream/);
    assert.match(await project.runs.diff(run.id), /\+second try/);
    assert.equal(run.usage?.inputTokens, 300, 'the cut call is counted too');
  });

  it('a partial denial: the edit runs, the command is denied; the run succeeds with the denial as a warning in its summary', async () => {
    const { project, server: s } = await setup(
      [
        { turn: {} },
        {
          turn: {
            text: 'Pushing.',
            tools: [{ name: 'Bash', input: { command: 'git push origin main', description: 'Push' } }],
          },
        },
        { turn: { text: 'Wrote it; the push was not allowed.' } },
      ],
      { 0: { file: 'kept.txt', content: 'kept\n' } },
    );
    await project.tasks.add({ title: 'edit and push', lane: 'claude-code' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(
      run.summary,
      'Wrote it; the push was not allowed. (warning: claude was denied 1 tool call(s): Bash; the others ran)',
    );
    assert.match(await project.runs.diff(run.id), /\+kept/);
    assert.equal(s.requests.length, 3);
    const progress = (await laneEvents(project, run.id))
      .filter((e) => e.type === 'progress')
      .map((e) => String(e.message));
    assert.ok(
      progress.includes('warning: claude was denied 1 tool call(s): Bash; the others ran'),
      JSON.stringify(progress),
    );
  });

  it('a run that times out while the CLI waits on the API: the calls that finished are counted, and the CLI is gone', async () => {
    const { project, server: s } = await setup([{ turn: {} }, { hang: true }], {
      0: { file: 'slow.txt', content: 'slow\n' },
    });
    await project.settings.update((st) => {
      st.laneSettings['claude-code'] = { ...st.laneSettings['claude-code'], timeoutMs: 6_000 };
    });
    await project.tasks.add({ title: 'slow API', lane: 'claude-code' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.failureCode, 'lane-timeout', run.failureReason);
    assert.equal(s.requests.length, 2);
    // The first call (100 prompt tokens) finished; the hung one is not paid for.
    assert.ok((run.usage?.inputTokens ?? 0) >= 100 && (run.usage?.inputTokens ?? 0) <= 200, JSON.stringify(run.usage));
    assert.equal(run.salvage?.files, 1, 'its file is salvaged');
    assert.deepEqual(processesIn(run.worktree), [], 'no process of the CLI is left in the worktree');
  });

  it('permission denial: with edits denied (--permission-mode default), the run fails as permission-denied naming Write, and is not retried', async () => {
    const { project, repo } = await setup(
      [{ turn: {} }, { turn: { text: 'I could not write the file.' } }],
      { 0: { file: 'denied.txt', content: 'never\n' } },
      { extraArgs: ['--permission-mode', 'default'], attempts: 2 },
    );
    await project.tasks.add({ title: 'denied edit', lane: 'claude-code' });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.runs.length, 1, 'not retried');
    const run = state.runs[0]!;
    assert.equal(run.state, 'FAILED');
    assert.equal(run.failureCode, 'permission-denied');
    assert.match(
      run.failureReason ?? '',
      /^claude reported: claude was denied every edit and command it asked for: Write\. Nothing it meant to change was changed; allow these tools for the lane/,
    );
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.equal(await project.runs.diff(run.id), '');
    assert.equal(run.salvage, undefined);
    await assert.rejects(repo.git('cat-file', '-e', `${run.branch}:denied.txt`));
  });

  it('a write outside the worktree, refused by the CLI under acceptEdits: not a permission failure (no setting fixes it), retried in a new session', async () => {
    const elsewhere = join(tmp.dir, 'elsewhere');
    const { project } = await setup(
      [
        { turn: { tools: [{ name: 'Write', input: { file_path: join(elsewhere, 'x.txt'), content: 'x\n' } }] } },
        { turn: { text: 'I could not write the file.' } },
        { turn: {} },
        { turn: { text: 'Wrote x.txt.' } },
      ],
      { 2: { file: 'x.txt', content: 'x\n' } },
      { attempts: 2 },
    );
    await project.tasks.add({ title: 'write x', lane: 'claude-code' });
    await project.runQueue();
    const state = await project.state();
    const [first, second] = state.runs;
    assert.equal(first!.failureCode, 'lane-exit', first!.failureReason);
    assert.ok(
      (first!.failureReason ?? '').includes(
        `claude was refused every edit it asked for because each named a file outside the run's worktree (${elsewhere}/x.txt)`,
      ),
      first!.failureReason,
    );
    assert.doesNotMatch(first!.failureReason ?? '', /permission-mode/);
    assert.equal(state.tasks[0]!.state, 'DONE', second?.failureReason);
    assert.ok(!existsSync(join(elsewhere, 'x.txt')), 'nothing was written outside the worktree');
  });
});

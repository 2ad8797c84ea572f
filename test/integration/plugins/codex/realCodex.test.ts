import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { responsesServer } from '../../../fixtures/responsesServer';
import type { ScriptStep, ScriptedModelServer } from '../../../fixtures/scriptedModelServer';
import { FAKE_KEYS, cliLaneProject, laneEvents } from '../../../helpers/cliLaneProject';
import {
  CODEX_BIN,
  CODEX_VERSION,
  applyPatch,
  codexHome,
  killPids,
  processesIn,
  toolOutputs,
  type CodexHomeOptions,
} from '../../../helpers/realCodex';
import { makeTempDir } from '../../../helpers/tempRepo';

/**
 * The codex lane with the REAL codex CLI (codex-cli 0.171.0) against a
 * scripted OpenAI Responses server on 127.0.0.1, through the real engine in
 * a temp git repository.
 */
describe('codex lane with the real codex CLI against a local Responses server', function () {
  this.timeout(60_000);
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let server: ScriptedModelServer | undefined;
  let ctx: Awaited<ReturnType<typeof cliLaneProject>> | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    if (ctx) {
      const left = await processesIn(ctx.repo.dir);
      killPids(left);
      assert.deepEqual(left, [], "no codex process is left in the run's worktree");
    }
    await server?.stop();
    await ctx?.repo.cleanup();
    await tmp.cleanup();
    ctx = undefined;
    server = undefined;
  });

  async function setup(script: ScriptStep[], options: CodexHomeOptions = {}) {
    server = await responsesServer(script);
    const codex = await codexHome(tmp.dir, server.url, options);
    ctx = await cliLaneProject('codex', codex.settings, { parentEnv: codex.env(FAKE_KEYS.OPENAI_API_KEY) });
    return { server, ...ctx };
  }

  it(`is the version these tests were checked against (${CODEX_VERSION})`, async () => {
    const { stdout } = await execa(CODEX_BIN, ['--version']);
    assert.equal(stdout.trim(), `codex-cli ${CODEX_VERSION}`);
  });

  it("happy path: codex edits a file with apply_patch; the change is the run's diff, the thread is the session, the tokens are recorded", async () => {
    const { project, server } = await setup([
      {
        turn: { text: 'Adding hello.txt.', tools: [applyPatch('hello.txt', 'hello from codex')] },
        usage: { input: 1_000, output: 50 },
      },
      { turn: { text: 'Added hello.txt.' }, usage: { input: 1_200, output: 20 } },
    ]);
    await project.tasks.add({ title: 'Add hello.txt', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(run.summary, 'Added hello.txt.');
    assert.match(await project.runs.diff(run.id), /\+\+\+ b\/hello\.txt\n@@ .* @@\n\+hello from codex/);
    // Codex sums the turn's two calls; it reports tokens, no price.
    assert.deepEqual(run.usage, { inputTokens: 2_200, outputTokens: 70, costUsd: 0 });

    assert.equal(server.requests.length, 2);
    const [first, second] = server.requests;
    assert.equal(first!.path, '/v1/responses');
    assert.equal(first!.body.stream, true);
    assert.equal(first!.headers.authorization, `Bearer ${FAKE_KEYS.OPENAI_API_KEY}`, "the lane's secret reached codex");
    assert.equal(run.sessionId, first!.headers['thread-id'], "the session is codex's thread");
    assert.match(toolOutputs(second!.body)[0]!, /Success\. Updated the following files:\nA hello\.txt/);

    const events = await laneEvents(project, run.id);
    const change = events.filter(
      (e) => e.name === 'file_change' || (e.type === 'tool-result' && (e.output as { changes?: unknown }).changes),
    );
    assert.equal(change.length, 2, JSON.stringify(events));
    assert.match(JSON.stringify(change[0]), /hello\.txt","kind":"add"/);
    assert.deepEqual(
      events.filter((e) => e.type === 'text').map((e) => e.text),
      ['Adding hello.txt.', 'Added hello.txt.'],
    );
  });

  it("429: codex gives up after one request (retries bounded by request_max_retries = 1), and the run fails with codex's own words", async () => {
    const limited = {
      httpError: {
        status: 429,
        type: 'rate_limit_exceeded',
        message: 'Rate limit reached for test-model',
        headers: { 'retry-after': '0' },
      },
    };
    const { project, server } = await setup([limited, limited], { requestRetries: 1 });
    await project.tasks.add({ title: 'rate limited', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'FAILED');
    assert.equal(
      server.requests.length,
      1,
      'codex 0.171 does not retry a 429 itself (request_max_retries = 1 still bounds it)',
    );
    assert.match(
      run.failureReason!,
      /^codex reported: exceeded retry limit, last status: 429 Too Many Requests; codex exited with code 1/,
    );
    assert.equal(run.usage ?? null, null, 'nothing was generated, nothing is counted');
  });

  it("5xx: a 503 is retried once, then the run fails naming the status and the server's message", async () => {
    const down = { httpError: { status: 503, type: 'server_error', message: 'upstream overloaded' } };
    const { project, server } = await setup([down, down], { requestRetries: 1 });
    await project.tasks.add({ title: 'server down', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'FAILED');
    assert.equal(server.requests.length, 2);
    assert.match(
      run.failureReason!,
      /^codex reported: unexpected status 503 Service Unavailable: upstream overloaded, url: http:\/\/127\.0\.0\.1:\d+\/v1\/responses; codex exited with code 1/,
    );
  });

  it('a stream cut mid-turn: codex reconnects once (stream_max_retries = 1); cut twice, the run fails as a disconnect', async () => {
    const cut: ScriptStep = { turn: { text: 'Starting on it, this answer will be cut off' }, dropAfterEvents: 4 };
    const { project, server } = await setup([cut, cut], { streamRetries: 1 });
    await project.tasks.add({ title: 'cut twice', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'FAILED');
    assert.equal(server.requests.length, 2);
    assert.match(
      run.failureReason!,
      /^codex reported: stream disconnected before completion: .*; codex exited with code 1/,
    );
    const logs = (await laneEvents(project, run.id))
      .filter((e) => e.type === 'log' && e.stream === 'stderr')
      .map((e) => String(e.line));
    assert.ok(
      logs.some((l) => /^Reconnecting\.\.\. 1\/1/.test(l)),
      JSON.stringify(logs),
    );
  });

  it('a stream cut mid-turn and reconnected: the run succeeds and only the completed response is counted', async () => {
    const { project, server } = await setup(
      [
        {
          turn: { text: 'Starting on it, this answer will be cut off' },
          dropAfterEvents: 4,
          usage: { input: 900, output: 9 },
        },
        { turn: { text: 'Nothing to change.' }, usage: { input: 1_000, output: 10 } },
      ],
      { streamRetries: 1 },
    );
    await project.tasks.add({ title: 'cut once', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(server.requests.length, 2);
    assert.equal(run.summary, 'Nothing to change.', run.failureReason);
    assert.deepEqual(run.usage, { inputTokens: 1_000, outputTokens: 10, costUsd: 0 });
  });

  it("sandbox denial: a write outside the worktree is refused by codex's sandbox (Linux landlock/seccomp), the model is told, nothing is written", async () => {
    const outside = join(tmp.dir, 'outside.txt');
    const { project, server } = await setup([
      { turn: { tools: [{ name: 'exec_command', input: { cmd: `echo leaked > ${outside}` } }] } },
      { turn: { text: 'I could not write outside the workspace.' } },
    ]);
    await project.tasks.add({ title: 'write outside', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(server.requests.length, 2);
    assert.ok(!existsSync(outside), 'the sandbox kept the write out');
    assert.match(toolOutputs(server.requests[1]!.body)[0]!, /Process exited with code 1[\s\S]*Read-only file system/);
    assert.equal(await project.runs.diff(run.id), '', 'nothing changed in the worktree');
    // Codex marks no denial as such in `exec --json`: the command, when it is reported at all (codex 0.171 leaves a
    // command that fails at once out of the stream in about half the runs), is a failed command_execution (exit 1),
    // and the turn goes on.
    const results = (await laneEvents(project, run.id)).filter((e) => e.type === 'tool-result') as {
      output: { output: string; status: string };
      isError: boolean;
    }[];
    assert.ok(results.length <= 1);
    for (const result of results) {
      assert.deepEqual({ status: result.output.status, isError: result.isError }, { status: 'failed', isError: true });
      assert.match(result.output.output, /outside\.txt: Read-only file system/);
    }
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(run.summary, 'I could not write outside the workspace.');
  });

  it("a fix attempt in its own worktree starts a new thread (the failed run's began in that run's worktree); each run counts its own calls, none twice", async () => {
    const { project, server } = await setup([
      { turn: { text: 'Part one.', tools: [applyPatch('part1.txt', 'one')] }, usage: { input: 1_000, output: 50 } },
      { turn: { text: 'Wrote part one.' }, usage: { input: 1_100, output: 10 } },
      { turn: { text: 'Part two.', tools: [applyPatch('part2.txt', 'two')] }, usage: { input: 1_500, output: 30 } },
      { turn: { text: 'Wrote part two.' }, usage: { input: 1_600, output: 20 } },
    ]);
    await project.settings.update((s) => {
      s.retryCaps.codex = 2;
    });
    await project.tasks.add({ title: 'Both parts', lane: 'codex', acceptance: 'test -f part2.txt' });
    await project.runQueue();
    const [first, second] = (await project.state()).runs;
    assert.equal(first!.failureCode, 'verify-failed');
    assert.equal(second!.state, 'SUCCEEDED', second!.failureReason);
    assert.equal(second!.resumeFrom?.sessionId, first!.sessionId, 'the handle names the thread…');
    assert.equal(second!.resumeFrom?.sessionCwd, first!.worktree, '…and where it began');
    assert.notEqual(second!.sessionId, first!.sessionId, 'a new thread');
    assert.equal(server.requests[2]!.headers['thread-id'], second!.sessionId);
    assert.doesNotMatch(JSON.stringify(server.requests[2]!.body.input), /"call_id":"call_0_0"/);
    assert.deepEqual(first!.usage, { inputTokens: 2_100, outputTokens: 60, costUsd: 0 });
    assert.deepEqual(
      second!.usage,
      { inputTokens: 3_100, outputTokens: 50, costUsd: 0 },
      "only the second run's own calls",
    );
  });

  it("a failed turn: the calls it completed before the error are counted from codex's session record", async () => {
    const { project, server } = await setup([
      { turn: { text: 'Part one.', tools: [applyPatch('part1.txt', 'one')] }, usage: { input: 1_000, output: 50 } },
      { httpError: { status: 503, type: 'server_error', message: 'upstream overloaded' } },
    ]);
    await project.tasks.add({ title: 'fails after one call', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'FAILED');
    assert.equal(server.requests.length, 2);
    assert.deepEqual(
      run.usage,
      { inputTokens: 1_000, outputTokens: 50, costUsd: 0 },
      'the paid first call is not lost',
    );
  });
});

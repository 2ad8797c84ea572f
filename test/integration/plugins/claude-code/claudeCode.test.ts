import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../../../src/cli/main';
import { FAKE_KEYS, cliLaneProject, laneEvents } from '../../../helpers/cliLaneProject';
import { standIn } from '../../../helpers/cliStandIns';
import { makeTempDir } from '../../../helpers/tempRepo';

const SESSION = '5f0c9d4e-2b7a-4c61-9e38-1d7a6b2f4c90';
const HEALTH = { write: { file: 'src/health.ts', content: 'export const health = (): number => 200;\n' } };

describe('claude-code lane (stand-in claude, real engine)', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let ctx: Awaited<ReturnType<typeof cliLaneProject>> | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    await ctx?.repo.cleanup();
    await tmp.cleanup();
  });

  async function setup(
    attempts: Record<string, unknown>[][],
    settings: Record<string, unknown> = {},
    runs = 1,
    parentEnv?: NodeJS.ProcessEnv,
  ) {
    const fake = await standIn(tmp.dir, 'claude', attempts);
    ctx = await cliLaneProject('claude-code', { binary: fake.binary, ...settings }, { attempts: runs, parentEnv });
    return { fake, ...ctx };
  }

  it('a normal run: session, text, tool call and result, usage with cost; the task is DONE with the change', async () => {
    const { fake, project } = await setup([[{ replay: 'claude/normal.jsonl' }, HEALTH]], {
      model: 'claude-sonnet-4-5',
    });
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
    assert.equal(run.sessionId, SESSION);
    assert.deepEqual(run.usage, {
      inputTokens: 12 + 5120 + 34026,
      outputTokens: 231,
      cacheReadTokens: 34026,
      cacheWriteTokens: 5120,
      costUsd: 0.0421355,
    });
    assert.equal(run.summary, 'Added src/health.ts: health() returns 200.');
    assert.match(await project.runs.diff(run.id), /\+export const health = \(\): number => 200;/);

    const events = await laneEvents(project, run.id);
    // Usage as the calls finish: once per message id (its two content blocks repeat it), then the result's rest and
    // the cost.
    assert.deepEqual(
      events.map((e) => e.type),
      ['session', 'progress', 'text', 'usage', 'tool-call', 'tool-result', 'text', 'usage', 'usage'],
    );
    assert.deepEqual(events[4], {
      type: 'tool-call',
      callId: 'toolu_01A9mZ2xQ7wE4rT6yU8iO0pL',
      name: 'Write',
      input: { file_path: '/work/project/src/health.ts', content: 'export const health = (): number => 200;\n' },
    });
    assert.deepEqual(events[5], {
      type: 'tool-result',
      callId: 'toolu_01A9mZ2xQ7wE4rT6yU8iO0pL',
      output: 'File created successfully at: /work/project/src/health.ts',
      isError: false,
    });
    assert.deepEqual(
      [events[3], events[7], events[8]],
      [
        {
          type: 'usage',
          usage: {
            inputTokens: 4 + 5120 + 11342,
            outputTokens: 2,
            cacheReadTokens: 11342,
            cacheWriteTokens: 5120,
            // Priced by the lane as it arrives (claude-sonnet-4-5: $3 / $15 per million tokens, cache writes
            // 1.25×, reads 0.1×)…
            costUsd: 0.0226446,
          },
        },
        {
          type: 'usage',
          usage: { inputTokens: 8 + 22684, outputTokens: 229, cacheReadTokens: 22684, costUsd: 0.0102642 },
        },
        // …and the result adds the rest of Claude Code's own cost.
        { type: 'usage', usage: { inputTokens: 0, outputTokens: 0, costUsd: 0.0092267 } },
      ],
    );

    const [call] = await fake.invocations();
    assert.deepEqual(call!.argv, [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      '--permission-mode',
      'acceptEdits',
      '--model',
      'claude-sonnet-4-5',
    ]);
    assert.equal(call!.cwd, run.worktree, "the CLI runs in the run's worktree");
    assert.match(
      call!.prompt,
      /^Add a health check\n\nAdd health\(\) returning 200\n\nFiles to work on:\n- src\/health\.ts\n/,
      'the prompt (on stdin) is built from the task spec',
    );
  });

  it('garbage lines and unknown events are kept verbatim as log events; the run still succeeds', async () => {
    const { project } = await setup([
      [
        { raw: 'Warning: update available 2.0.15' },
        { emit: { type: 'rate_limit_event', rate_limit_info: { status: 'allowed', resetsAt: 1789040400 } } },
        { replay: 'claude/normal.jsonl' },
        {
          emit: {
            type: 'system',
            subtype: 'api_retry',
            attempt: 1,
            max_retries: 10,
            retry_delay_ms: 500,
            error_status: 529,
            error: 'server_error',
            session_id: SESSION,
          },
        },
        { raw: '\u001b[2K not json {' },
      ],
    ]);
    await project.tasks.add({ title: 'garbage', lane: 'claude-code' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    const logs = (await laneEvents(project, run.id)).filter((e) => e.type === 'log').map((e) => e.line);
    assert.deepEqual(logs, [
      'Warning: update available 2.0.15',
      '{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","resetsAt":1789040400}}',
      // line-length: data-table, a recorded stream-json line kept verbatim
      '{"type":"system","subtype":"api_retry","session_id":"5f0c9d4e-2b7a-4c61-9e38-1d7a6b2f4c90","attempt":1,"max_retries":10,"retry_delay_ms":500,"error_status":529,"error":"server_error"}',
      // line-length: end
      '\u001b[2K not json {',
    ]);
    const progress = (await laneEvents(project, run.id)).filter((e) => e.type === 'progress').map((e) => e.message);
    assert.ok(
      progress.includes('claude retries an API call (HTTP 529): attempt 1 of 10 in 500 ms'),
      JSON.stringify(progress),
    );
  });

  it('a stream cut mid-line by a dying process fails the run with the cut line, and the partial work is salvaged', async () => {
    const { project, repo } = await setup([
      [
        { replay: 'claude/started.jsonl' },
        { write: { file: 'half.txt', content: 'half\n' } },
        { partial: '{"type":"assistant","message":{"content":[{"type":"te' },
        { kill: 'SIGKILL' },
      ],
    ]);
    await project.tasks.add({ title: 'cut', lane: 'claude-code' });
    await project.runQueue();
    const state = await project.state();
    const run = state.runs[0]!;
    assert.equal(run.state, 'FAILED');
    assert.equal(
      run.failureReason,
      'claude\'s stream stopped mid-line after 53 characters, before a result: "{\\"type\\":\\"assistant\\",\\"message\\":{\\"content\\":[{\\"type\\":\\"te"; claude was killed by SIGKILL; no stderr output',
    );
    assert.equal(state.tasks[0]!.failureReason, `${run.failureReason} (failed 1 attempt, the lane's limit)`);
    assert.equal(run.sessionId, SESSION, 'the session seen before the cut is kept for a resume');
    assert.equal(run.salvage?.branch, 'switchyard/salvage/t1.1');
    assert.match(await repo.git('show', '--stat', 'switchyard/salvage/t1.1'), /half\.txt/);
    const events = await laneEvents(project, run.id);
    assert.deepEqual(events.at(-1), {
      type: 'log',
      stream: 'stdout',
      line: '{"type":"assistant","message":{"content":[{"type":"te',
    });
  });

  it('a stream whose pipe closes while the CLI goes on: the run fails as ended without a result, and what it wrote is salvaged', async () => {
    const { project } = await setup([
      [
        { replay: 'claude/started.jsonl' },
        { closeStdout: true },
        { write: { file: 'after-close.txt', content: 'written after the pipe closed\n' } },
        { exit: 0 },
      ],
    ]);
    await project.tasks.add({ title: 'pipe closed', lane: 'claude-code' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(
      run.failureReason,
      "claude's stream ended without a result; claude exited with code 0; no stderr output",
    );
    assert.equal(run.salvage?.files, 1);
  });

  it("a non-zero exit with an error result: each attempt's reason is the CLI's own error, and the task reads its reason, then the attempts spent", async () => {
    const { project, repo } = await setup(
      [[{ replay: 'claude/api-error.jsonl' }, { stderr: 'Error: API request failed' }, { exit: 1 }]],
      {},
      2,
    );
    await project.tasks.add({ title: 'overloaded', lane: 'claude-code' });
    await project.runQueue();
    const state = await project.state();
    const api =
      'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":null}';
    const reason = `claude reported: API error (overloaded): ${api}; claude exited with code 1; stderr: Error: API request failed`;
    assert.deepEqual(
      state.runs.map((r) => [r.id, r.state, r.failureReason]),
      [
        ['t1.1', 'FAILED', reason],
        ['t1.2', 'FAILED', reason],
      ],
    );
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.equal(state.tasks[0]!.failureReason, `${reason} (failed 2 attempts, the lane's limit)`);
    const events = await laneEvents(project, 't1.1');
    assert.deepEqual(
      events.filter((e) => e.type === 'text'),
      [],
      "the CLI's synthetic error message is not model text",
    );
    assert.ok(
      events.some(
        (e) => e.type === 'progress' && e.message === `claude's API call failed: API error (overloaded): ${api}`,
      ),
      JSON.stringify(events),
    );

    const out: string[] = [];
    await main(['status', '--repo', repo.dir], {
      cwd: repo.dir,
      env: { ...process.env },
      out: (t) => out.push(t),
      err: (t) => out.push(t),
    });
    const status = out.join('\n');
    assert.ok(status.includes(`failure: ${reason} (failed 2 attempts, the lane's limit)`), status);
    assert.ok(
      status.includes(`t1.1 · FAILED · lane claude-code · attempt 1`) && status.split(`reason: ${reason}`).length === 3,
      status,
    );
  });

  it("message-field collision: Claude's `message` is an object; every content block reaches the events whole", async () => {
    const input = { message: { role: 'user', content: 'nested' }, subject: 'chore: x', files: ['a', 'b'] };
    const blocks = [
      { type: 'text', text: 'Committing.' },
      { type: 'image', source: { type: 'base64', data: 'AAAA' } },
    ];
    const { project } = await setup([
      [
        { emit: { type: 'system', subtype: 'init', session_id: SESSION, model: 'm', claude_code_version: '2.0.14' } },
        {
          emit: {
            type: 'assistant',
            message: {
              id: 'msg_1',
              role: 'assistant',
              content: [
                { type: 'text', text: 'I will commit.' },
                { type: 'tool_use', id: 'toolu_1', name: 'mcp__git__commit', input },
              ],
            },
            parent_tool_use_id: null,
            session_id: SESSION,
          },
        },
        {
          emit: {
            type: 'user',
            message: {
              role: 'user',
              content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: blocks, is_error: true }],
            },
            parent_tool_use_id: null,
            session_id: SESSION,
          },
        },
        { emit: { type: 'error', message: 'a Codex-shaped line on a Claude stream' } },
        {
          emit: {
            type: 'result',
            subtype: 'success',
            is_error: false,
            result: 'ok',
            session_id: SESSION,
            total_cost_usd: 0.5,
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
      ],
    ]);
    await project.tasks.add({ title: 'collision', lane: 'claude-code' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    const events = (await laneEvents(project, run.id)).filter((e) => e.type !== 'progress');
    assert.deepEqual(events, [
      { type: 'session', sessionId: SESSION },
      { type: 'text', text: 'I will commit.' },
      { type: 'tool-call', callId: 'toolu_1', name: 'mcp__git__commit', input },
      { type: 'tool-result', callId: 'toolu_1', output: blocks, isError: true },
      { type: 'log', stream: 'stdout', line: '{"type":"error","message":"a Codex-shaped line on a Claude stream"}' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.5 } },
    ]);
  });

  it('a CLI that hangs past the timeout is killed with its whole process group; the run fails with the timeout', async function () {
    this.timeout(15_000);
    const pidFile = join(tmp.dir, 'sleeper.pid');
    const { project } = await setup([[{ replay: 'claude/started.jsonl' }, { spawnSleeper: pidFile }, { hang: true }]], {
      timeoutMs: 1_500,
    });
    await project.tasks.add({ title: 'hang', lane: 'claude-code' });
    const started = Date.now();
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.ok(Date.now() - started < 10_000, 'the run ends soon after its timeout');
    assert.equal(run.failureCode, 'lane-timeout');
    assert.match(run.failureReason!, /lane "claude-code" did not finish within 1\.5 s and was aborted/);
    const sleeper = Number(await readFile(pidFile, 'utf8'));
    assert.ok(!alive(sleeper), `the CLI's child process ${sleeper} was killed with it`);
  });

  it('a missing binary fails at once with where it looked, and is not retried', async () => {
    // The lane's PATH is the allowlisted PATH of the parent environment the project was opened with.
    const { project } = await setup([[{ replay: 'claude/normal.jsonl' }]], {}, 3, {
      ...process.env,
      ...FAKE_KEYS,
      PATH: '/nonexistent-bin',
    });
    await project.settings.update((s) => {
      s.laneSettings['claude-code'] = {};
    });
    await project.tasks.add({ title: 'no binary', lane: 'claude-code' });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.runs.length, 1, 'not retried');
    assert.equal(state.runs[0]!.failureCode, 'lane-misconfigured');
    assert.match(
      state.tasks[0]!.failureReason!,
      // line-length: data-table, the error message quoted whole, backticks included
      /lane "claude-code" cannot find the Claude Code CLI: `claude` is not on PATH \(\/nonexistent-bin\); set the lane's binary \(switchyard lanes set claude-code binary=\/path\/to\/claude\) or put claude on PATH/,
      // line-length: end
    );
  });
});

/** Gone, or a zombie nobody reaped yet. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.split(') ')[1]?.[0] !== 'Z';
}

import assert from 'node:assert/strict';
import { FAKE_KEYS, cliLaneProject, laneEvents } from '../../../helpers/cliLaneProject';
import { standIn } from '../../../helpers/cliStandIns';
import { makeTempDir } from '../../../helpers/tempRepo';

const CHAT = '00000000-0000-4000-8000-000000000001';

describe('cursor-agent lane (stand-in cursor-agent, real engine)', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let ctx: Awaited<ReturnType<typeof cliLaneProject>> | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    await ctx?.repo.cleanup();
    await tmp.cleanup();
  });

  it('a recorded run: chat id as session, thinking as progress, tool calls (a rejected one is an error), usage; DONE', async () => {
    const fake = await standIn(tmp.dir, 'cursor-agent', [
      [
        { replay: 'cursor/normal.jsonl' },
        { write: { file: 'src/health.ts', content: 'export const health = (): number => 200;\n' } },
      ],
    ]);
    ctx = await cliLaneProject('cursor-agent', { binary: fake.binary, model: 'auto' });
    await ctx.project.tasks.add({ title: 'Add health', spec: 'Add health() returning 200', lane: 'cursor-agent' });
    await ctx.project.runQueue();
    const run = (await ctx.project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(run.sessionId, CHAT);
    assert.deepEqual(run.usage, { inputTokens: 14948, outputTokens: 103, costUsd: 0 });
    const events = await laneEvents(ctx.project, run.id);
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'session',
        'progress',
        'progress',
        'text',
        'tool-call',
        'tool-result',
        'tool-call',
        'tool-result',
        'tool-call',
        'tool-result',
        'text',
        'usage',
      ],
    );
    assert.deepEqual(events[2], { type: 'progress', message: 'Reading src to find where to add it.' });
    assert.deepEqual(events[6], {
      type: 'tool-call',
      callId: 'call-edit-1',
      name: 'edit',
      input: { path: '/work/project/src/health.ts', streamContent: 'export const health = (): number => 200;\n' },
    });
    assert.deepEqual(events[9], {
      type: 'tool-result',
      callId: 'call-shell-2',
      output: { rejected: { command: 'npm test', workingDirectory: '/work/project', reason: '', isReadonly: false } },
      isError: true,
    });
    const [call] = await fake.invocations();
    assert.deepEqual(call!.argv.slice(0, -1), [
      '-p',
      '--output-format',
      'stream-json',
      '--force',
      '--trust',
      '--model',
      'auto',
    ]);
    assert.match(call!.prompt, /^Add health\n\nAdd health\(\) returning 200\n/, 'the prompt is the last argument');
  });

  it('finds the CLI on PATH under its newer name `agent` when no binary is set', async () => {
    const fake = await standIn(tmp.dir, 'cursor-agent', [[{ replay: 'cursor/normal.jsonl' }]], 'agent');
    ctx = await cliLaneProject(
      'cursor-agent',
      {},
      { parentEnv: { ...process.env, ...FAKE_KEYS, PATH: `${fake.bin}:${process.env.PATH}` } },
    );
    await ctx.project.tasks.add({ title: 'on PATH', lane: 'cursor-agent' });
    await ctx.project.runQueue();
    assert.equal((await ctx.project.state()).runs[0]!.state, 'SUCCEEDED');
    assert.equal((await fake.invocations()).length, 1);
  });

  it('a failure without a result (documented: non-zero exit, the error on stderr) reads the stderr', async () => {
    const fake = await standIn(tmp.dir, 'cursor-agent', [
      [{ replay: 'cursor/started.jsonl' }, { stderr: 'ConnectError: [unavailable] read ECONNRESET' }, { exit: 1 }],
    ]);
    ctx = await cliLaneProject('cursor-agent', { binary: fake.binary });
    await ctx.project.tasks.add({ title: 'reset', lane: 'cursor-agent' });
    await ctx.project.runQueue();
    const run = (await ctx.project.state()).runs[0]!;
    assert.equal(
      run.failureReason,
      "cursor-agent's stream ended without a result; cursor-agent exited with code 1; stderr: ConnectError: [unavailable] read ECONNRESET",
    );
    assert.deepEqual((await laneEvents(ctx.project, run.id)).at(-1), {
      type: 'log',
      stream: 'stderr',
      line: 'ConnectError: [unavailable] read ECONNRESET',
    });
  });

  it('an error result fails the run with its text even when the CLI exits 0', async () => {
    const fake = await standIn(tmp.dir, 'cursor-agent', [
      [
        { replay: 'cursor/started.jsonl' },
        {
          emit: {
            type: 'result',
            subtype: 'error',
            is_error: true,
            result: 'Usage limit reached for this billing period',
            session_id: CHAT,
          },
        },
      ],
    ]);
    ctx = await cliLaneProject('cursor-agent', { binary: fake.binary });
    await ctx.project.tasks.add({ title: 'limit', lane: 'cursor-agent' });
    await ctx.project.runQueue();
    assert.equal(
      (await ctx.project.state()).runs[0]!.failureReason,
      'cursor-agent reported: Usage limit reached for this billing period; cursor-agent exited with code 0; no stderr output',
    );
  });
});

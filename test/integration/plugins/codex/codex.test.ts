import assert from 'node:assert/strict';
import { cliLaneProject, laneEvents } from '../../../helpers/cliLaneProject';
import { standIn } from '../../../helpers/cliStandIns';
import { makeTempDir } from '../../../helpers/tempRepo';

const THREAD = '0199a213-81c0-7800-8aa1-bbab2a035a53';

describe('codex lane (stand-in codex, real engine)', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let ctx: Awaited<ReturnType<typeof cliLaneProject>> | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    await ctx?.repo.cleanup();
    await tmp.cleanup();
  });

  async function setup(attempts: Record<string, unknown>[][], settings: Record<string, unknown> = {}, runs = 1) {
    const fake = await standIn(tmp.dir, 'codex', attempts);
    ctx = await cliLaneProject('codex', { binary: fake.binary, ...settings }, { attempts: runs });
    return { fake, ...ctx };
  }

  it('the documented sample stream: thread id as session, reasoning, a command and its output, the answer, usage', async () => {
    const { fake, project } = await setup([[{ replay: 'codex/docs-sample.jsonl' }]], {
      extraArgs: ['--skip-git-repo-check'],
    });
    await project.tasks.add({ title: 'Is there a README?', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(run.sessionId, THREAD);
    assert.equal(run.summary, 'Yep — there’s a `README.md` in the repository root.');
    assert.deepEqual(run.usage, { inputTokens: 24763, outputTokens: 122, costUsd: 0 });
    const events = await laneEvents(project, run.id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['session', 'progress', 'progress', 'tool-call', 'tool-result', 'progress', 'text', 'usage'],
    );
    assert.deepEqual(events[3], {
      type: 'tool-call',
      callId: 'item_1',
      name: 'command_execution',
      input: { command: 'bash -lc ls' },
    });
    assert.equal((events[4] as { output: { exit_code: number } }).output.exit_code, 0);
    assert.equal((events[4] as { isError: boolean }).isError, false);
    const [call] = await fake.invocations();
    assert.deepEqual(call!.argv, ['exec', '--json', '--sandbox', 'workspace-write', '--skip-git-repo-check', '-']);
    assert.match(call!.prompt, /^Is there a README\?\n/, 'the prompt arrives on stdin (`-`)');
  });

  it("a file change is a tool call and result, and the change is the run's diff", async () => {
    const { project } = await setup(
      [
        [
          { replay: 'codex/normal.jsonl' },
          { write: { file: 'src/health.ts', content: 'export const health = () => 200;\n' } },
        ],
      ],
      { model: 'gpt-5-codex' },
    );
    await project.tasks.add({ title: 'Add health', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    const change = (await laneEvents(project, run.id)).filter((e) => e.callId === 'item_2');
    assert.deepEqual(change, [
      {
        type: 'tool-call',
        callId: 'item_2',
        name: 'file_change',
        input: { changes: [{ path: 'src/health.ts', kind: 'add' }] },
      },
      {
        type: 'tool-result',
        callId: 'item_2',
        output: { status: 'completed', changes: [{ path: 'src/health.ts', kind: 'add' }] },
        isError: false,
      },
    ]);
    assert.match(await project.runs.diff(run.id), /\+export const health/);
  });

  it('message-field collision: error events carry `message` as a string; the whole text reaches the events and the failure reason', async () => {
    const long =
      'stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)';
    const { project } = await setup([
      [
        { replay: 'codex/stream-error.jsonl' },
        {
          emit: {
            type: 'item.completed',
            item: {
              id: 'item_9',
              type: 'error',
              message: 'Model metadata for `o3-mini` not found; {"detail":"not supported"}',
            },
          },
        },
        { exit: 1 },
      ],
    ]);
    await project.tasks.add({ title: 'flaky network', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.failureReason, `codex reported: ${long}; codex exited with code 1; no stderr output`);
    const logs = (await laneEvents(project, run.id)).filter((e) => e.type === 'log');
    assert.deepEqual(logs, [
      { type: 'log', stream: 'stderr', line: `Reconnecting... 1/5 (${long})` },
      { type: 'log', stream: 'stderr', line: long },
      { type: 'log', stream: 'stderr', line: long },
      { type: 'log', stream: 'stderr', line: 'Model metadata for `o3-mini` not found; {"detail":"not supported"}' },
    ]);
  });

  it('error events alone do not fail a turn that completes (Codex reports reconnects as errors)', async () => {
    const { project } = await setup([
      [
        { emit: { type: 'thread.started', thread_id: THREAD } },
        { emit: { type: 'error', message: 'Reconnecting... 1/5' } },
        { emit: { type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'done' } } },
        { emit: { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 } } },
      ],
    ]);
    await project.tasks.add({ title: 'reconnect', lane: 'codex' });
    await project.runQueue();
    assert.equal((await project.state()).runs[0]!.state, 'SUCCEEDED');
  });

  it("an interrupted attempt's thread is not resumed in the next attempt's worktree: a new thread", async () => {
    const { fake, project } = await setup(
      [
        [{ replay: 'codex/started.jsonl' }, { write: { file: 'wip.txt', content: 'wip\n' } }, { kill: 'SIGKILL' }],
        [{ replay: 'codex/normal.jsonl' }],
      ],
      {},
      2,
    );
    await project.tasks.add({ title: 'resume me', lane: 'codex' });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    const calls = await fake.invocations();
    assert.deepEqual(
      calls.map((c) => c.argv),
      [
        ['exec', '--json', '--sandbox', 'workspace-write', '-'],
        ['exec', '--json', '--sandbox', 'workspace-write', '-'],
      ],
    );
    assert.match(calls[1]!.prompt, /Its partial work was kept on branch switchyard\/salvage\/t1\.1/);
    const progress = (await laneEvents(project, 't1.2')).filter((e) => e.type === 'progress').map((e) => e.message);
    assert.ok(
      progress.some((m) => String(m).startsWith(`codex does not resume session ${THREAD}: it began in `)),
      JSON.stringify(progress),
    );
  });

  it("the stream recorded from the real codex 0.171: the edit, the command, the answer and the turn's total usage", async () => {
    const { project } = await setup([
      [
        { replay: 'codex/real-0.171-edit.jsonl' },
        { write: { file: 'src/health.ts', content: 'export const health = () => 200;\n' } },
      ],
    ]);
    await project.tasks.add({ title: 'Add health', lane: 'codex' });
    await project.runQueue();
    const run = (await project.state()).runs[0]!;
    assert.equal(run.state, 'SUCCEEDED', run.failureReason);
    assert.equal(run.sessionId, '01a231db-be45-74b1-8a93-d9d5d39786e2');
    assert.equal(run.summary, 'Added src/health.ts with a health() that returns 200.');
    assert.deepEqual(run.usage, { inputTokens: 3_300, outputTokens: 82, costUsd: 0 });
    const events = await laneEvents(project, run.id);
    assert.deepEqual(
      events.filter((e) => e.type === 'tool-call').map((e) => e.name),
      ['file_change', 'command_execution'],
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'text').map((e) => e.text),
      ['Adding src/health.ts.', 'Checking.', 'Added src/health.ts with a health() that returns 200.'],
    );
    assert.ok(
      events.some((e) => e.type === 'log' && String(e.line).startsWith('Model metadata for `test-model` not found')),
      'the warning item is a log line, not a failure',
    );
  });

  it('the 429 recorded from the real codex 0.171 is the failure reason', async () => {
    const { project } = await setup([[{ replay: 'codex/real-0.171-429.jsonl' }, { exit: 1 }]]);
    await project.tasks.add({ title: 'limited', lane: 'codex' });
    await project.runQueue();
    assert.equal(
      (await project.state()).runs[0]!.failureReason,
      'codex reported: exceeded retry limit, last status: 429 Too Many Requests; codex exited with code 1; no stderr output',
    );
  });
});

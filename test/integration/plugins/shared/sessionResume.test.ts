import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createClaudeCodeLane } from '../../../../plugins/claude-code';
import { createCodexLane } from '../../../../plugins/codex';
import type { LaneEvent, LanePlugin, LaneResult, LaneRunInput } from '../../../../src/api';
import { FAKE_KEYS } from '../../../helpers/cliLaneProject';
import { standIn, type StandInCli, type Step } from '../../../helpers/cliStandIns';
import { makeTempDir } from '../../../helpers/tempRepo';

const SESSION = '5f7a2b9c-1d3e-4f60-8a1b-2c3d4e5f6a7b';
const THREAD = '0199a213-81c0-7800-8aa1-bbab2a035a53';

/**
 * Which session a CLI lane resumes (the lane run directly, stand-in CLIs): only one that began in this very worktree;
 * one that cannot be resumed there (unknown, or held by another process) is replaced once by a new session.
 */
describe('CLI lanes: a session is resumed only in the worktree it began in', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.cleanup());

  async function run(
    lane: LanePlugin,
    cli: StandInCli,
    attempts: Step[][],
    resume: (dir: string) => LaneRunInput['resume'],
  ) {
    const fake = await standIn(tmp.dir, cli, attempts);
    const dir = join(tmp.dir, 'worktree');
    await mkdir(dir, { recursive: true });
    const events: LaneEvent[] = [];
    const result = (await lane.run({
      task: { id: 't1', title: 'Finish it', spec: 'Finish it', files: [] },
      workspaceDir: dir,
      env: { PATH: process.env.PATH ?? '' },
      attempt: { runId: 't1.2', attempt: 2, parentRunId: 't1.1', retryReason: 'its owner stopped' },
      resume: resume(dir),
      settings: { binary: fake.binary },
      secrets: FAKE_KEYS,
      signal: new AbortController().signal,
      emit: (e) => void events.push(e as LaneEvent),
      call: () => Promise.reject(new Error('no durable calls')),
    })) as LaneResult;
    const progress = events.flatMap((e) => (e.type === 'progress' ? [e.message] : []));
    return { result, calls: await fake.invocations(), progress };
  }

  it('in the worktree it began in: resumed, and the prompt says the working tree holds the earlier work', async () => {
    const { result, calls } = await run(
      createClaudeCodeLane(),
      'claude',
      [[{ replay: 'claude/normal.jsonl' }]],
      (dir) => ({
        runId: 't1.1',
        sessionId: SESSION,
        sessionCwd: dir,
      }),
    );
    assert.equal(result.status, 'succeeded', result.failureReason);
    assert.deepEqual(calls[0]!.argv.slice(-2), ['--resume', SESSION]);
    assert.match(
      calls[0]!.prompt,
      /This continues your earlier session.*\nThe working tree holds the work you had done/,
    );
  });

  it('a session that began in another worktree: a new session, with the earlier work as context', async () => {
    const other = join(tmp.dir, 'other-worktree');
    const { result, calls, progress } = await run(
      createClaudeCodeLane(),
      'claude',
      [[{ replay: 'claude/normal.jsonl' }]],
      () => ({
        runId: 't1.1',
        sessionId: SESSION,
        sessionCwd: other,
        salvageBranch: 'switchyard/salvage/t1.1',
        start: 'earlier-work',
      }),
    );
    assert.equal(result.status, 'succeeded', result.failureReason);
    assert.equal(calls[0]!.session, null);
    assert.ok(!calls[0]!.argv.includes('--resume'));
    assert.match(calls[0]!.prompt, /Its partial work was kept on branch switchyard\/salvage\/t1\.1/);
    assert.doesNotMatch(calls[0]!.prompt, /This continues your earlier session/);
    assert.ok(
      progress.some((m) => m.startsWith(`claude does not resume session ${SESSION}: it began in ${other}, not in`)),
      JSON.stringify(progress),
    );
  });

  it('a session the CLI no longer knows: a new session gets the earlier work as context', async () => {
    const { result, calls, progress } = await run(
      createClaudeCodeLane(),
      'claude',
      [
        [{ stderr: `No conversation found with session ID: ${SESSION}` }, { exit: 1 }],
        [{ replay: 'claude/normal.jsonl' }],
      ],
      (dir) => ({
        runId: 't1.1',
        sessionId: SESSION,
        sessionCwd: dir,
        salvageBranch: 'switchyard/salvage/t1.1',
        start: 'earlier-work',
      }),
    );
    assert.equal(result.status, 'succeeded', result.failureReason);
    assert.deepEqual(
      calls.map((c) => c.session),
      [SESSION, null],
    );
    assert.match(
      calls[1]!.prompt,
      /An earlier attempt \(run t1\.1\) stopped before it finished\. It stopped with: its owner stopped\nIts partial work was kept on branch switchyard\/salvage\/t1\.1, and this working tree already starts from it\./,
    );
    assert.ok(
      progress.some((m) => m.startsWith(`claude could not resume session ${SESSION} (`)),
      JSON.stringify(progress),
    );
  });

  it('`codex exec resume` refused ("already has an active writer"): a new thread with the earlier work', async () => {
    // stderr and exit code as codex-cli 0.171.0 prints them when another codex process still holds the thread.
    const refusal = [
      `2026-12-01T13:26:17.001718Z ERROR codex_core::session::session: failed to initialize thread persistence: thread-store conflict: thread ${THREAD} already has an active writer`,
      `Error: thread/resume: thread/resume failed: thread ${THREAD} already has an active writer (code -32600)`,
    ];
    const { result, calls, progress } = await run(
      createCodexLane(),
      'codex',
      [[...refusal.map((line) => ({ stderr: line })), { exit: 1 }], [{ replay: 'codex/normal.jsonl' }]],
      (dir) => ({
        runId: 't1.1',
        sessionId: THREAD,
        sessionCwd: dir,
        salvageBranch: 'switchyard/salvage/t1.1',
        start: 'earlier-work',
      }),
    );
    assert.equal(result.status, 'succeeded', result.failureReason);
    assert.deepEqual(
      calls.map((c) => c.argv),
      [
        ['exec', '--json', '--sandbox', 'workspace-write', 'resume', THREAD, '-'],
        ['exec', '--json', '--sandbox', 'workspace-write', '-'],
      ],
    );
    assert.match(calls[1]!.prompt, /Its partial work was kept on branch switchyard\/salvage\/t1\.1/);
    assert.ok(
      progress.some(
        (m) =>
          m.startsWith(`codex could not resume session ${THREAD} (`) &&
          m.includes('already has an active writer (code -32600)'),
      ),
      JSON.stringify(progress),
    );
  });

  it('a failed resume for another reason is not retried in a new session', async () => {
    const { result, calls } = await run(
      createCodexLane(),
      'codex',
      [[{ stderr: 'Error: thread/resume: thread/resume failed: invalid request (code -32600)' }, { exit: 1 }]],
      (dir) => ({ runId: 't1.1', sessionId: THREAD, sessionCwd: dir }),
    );
    assert.equal(result.status, 'failed');
    assert.deepEqual(
      calls.map((c) => c.session),
      [THREAD],
    );
    assert.match(result.failureReason ?? '', /invalid request \(code -32600\)/);
  });
});

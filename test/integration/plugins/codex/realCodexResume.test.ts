import assert from 'node:assert/strict';
import { createCodexLane } from '../../../../plugins/codex';
import type { LaneEvent, LaneResult, LaneRunInput, Usage } from '../../../../src/api';
import { responsesServer } from '../../../fixtures/responsesServer';
import type { ScriptedModelServer } from '../../../fixtures/scriptedModelServer';
import { CODEX_BIN, CODEX_VERSION, applyPatch, codexHome, killPids, processesIn } from '../../../helpers/realCodex';
import { makeTempDir, makeTempRepo } from '../../../helpers/tempRepo';

const KEY = 'sk-test-openai-resume-0123456789abcdef';

/**
 * The codex lane run directly (no engine) with the real codex CLI (codex-cli
 * 0.171.0) twice in the same worktree, so the second process resumes the
 * first one's thread (`codex exec resume`): its `turn.completed` usage is
 * the thread's running total, and the lane records this process's own calls.
 */
describe(`codex lane with the real codex ${CODEX_VERSION}: usage of a thread resumed in its worktree`, function () {
  this.timeout(60_000);
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let server: ScriptedModelServer | undefined;
  beforeEach(async () => {
    tmp = await makeTempDir();
    repo = await makeTempRepo();
  });
  afterEach(async () => {
    killPids(await processesIn(repo.dir));
    await server?.stop();
    server = undefined;
    await repo.cleanup();
    await tmp.cleanup();
  });

  it('the resumed process records its own calls only; the server saw the same thread', async () => {
    server = await responsesServer([
      { turn: { text: 'Part one.', tools: [applyPatch('part1.txt', 'one')] }, usage: { input: 1_000, output: 50 } },
      { turn: { text: 'Wrote part one.' }, usage: { input: 1_100, output: 10 } },
      { turn: { text: 'Part two.', tools: [applyPatch('part2.txt', 'two')] }, usage: { input: 1_500, output: 30 } },
      { turn: { text: 'Wrote part two.' }, usage: { input: 1_600, output: 20 } },
    ]);
    const codex = await codexHome(tmp.dir, server.url);
    const lane = createCodexLane();
    const run = async (runId: string, resume: LaneRunInput['resume']) => {
      const events: LaneEvent[] = [];
      const result = (await lane.run({
        task: { id: 't1', title: 'Write the parts', spec: 'Write the parts', files: [] },
        workspaceDir: repo.dir,
        env: codex.env(KEY),
        attempt: { runId, attempt: 1 },
        ...(resume ? { resume } : {}),
        settings: { binary: CODEX_BIN },
        secrets: { OPENAI_API_KEY: KEY },
        signal: new AbortController().signal,
        emit: (e) => void events.push(e as LaneEvent),
        call: () => Promise.reject(new Error('no durable calls')),
      })) as LaneResult;
      return { result, usage: sum(events) };
    };
    const first = await run('t1.1', undefined);
    assert.equal(first.result.status, 'succeeded', first.result.failureReason);
    const thread = first.result.sessionId!;
    const second = await run('t1.2', { runId: 't1.1', sessionId: thread, sessionCwd: repo.dir });
    assert.equal(second.result.status, 'succeeded', second.result.failureReason);
    assert.equal(server.requests[2]!.headers['thread-id'], thread, 'the thread was resumed');
    assert.match(JSON.stringify(server.requests[2]!.body.input), /"call_id":"call_0_0"/, 'with its history');
    assert.deepEqual(first.usage, { inputTokens: 1_000 + 1_100, outputTokens: 50 + 10, costUsd: 0 });
    assert.deepEqual(second.usage, { inputTokens: 1_500 + 1_600, outputTokens: 30 + 20, costUsd: 0 });
  });
});

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

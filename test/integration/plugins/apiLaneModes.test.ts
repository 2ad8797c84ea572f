import assert from 'node:assert/strict';
import type { LaneRunInput } from '../../../src/api';
import { createAnthropicLane } from '../../../plugins/anthropic';
import { anthropicServer } from '../../fixtures/anthropicServer';
import type { ScriptStep } from '../../fixtures/scriptedModelServer';
import { makeTempRepo } from '../../helpers/tempRepo';
import { FAKE_ANTHROPIC_KEY, REPO_FILES } from './apiLaneHarness';

/** The lane called directly, as the engine's review stage and fix attempts call it (calls kept in memory). */
async function runLaneDirectly(script: ScriptStep[], extra: Partial<LaneRunInput>) {
  const server = await anthropicServer(script);
  const repo = await makeTempRepo(REPO_FILES);
  const events: unknown[] = [];
  try {
    const result = await createAnthropicLane().run({
      task: { id: 't1', title: 'Users are active', spec: 'New users must be active.', files: ['src/user.py'] },
      workspaceDir: repo.dir,
      env: { PATH: process.env.PATH! },
      attempt: { runId: 't1.1', attempt: 1 },
      secrets: { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY },
      settings: { baseUrl: `${server.url}/v1` },
      signal: new AbortController().signal,
      emit: (event) => void events.push(event),
      call: async (_spec, fn) => ({
        status: 'ok',
        value: await fn({ idempotencyKey: 'k' }),
        replayed: false,
        idempotencyKey: 'k',
      }),
      ...extra,
    });
    return { result, requests: server.requests, events };
  } finally {
    await server.stop();
    await repo.cleanup();
  }
}

describe('API lane modes', function () {
  this.timeout(20_000);

  it("review: read-only tools and a verdict, answered as the result's review", async () => {
    const { result, requests } = await runLaneDirectly(
      [
        { turn: { tools: [{ name: 'read_file', input: { path: 'src/user.py' } }] } },
        {
          turn: {
            tools: [
              {
                name: 'verdict',
                input: { verdict: 'changes-requested', reasons: ['src/user.py:2 does not set active'] },
              },
            ],
          },
        },
      ],
      { mode: 'review' },
    );
    assert.deepEqual(result, {
      status: 'succeeded',
      summary: 'changes-requested: src/user.py:2 does not set active',
      review: { verdict: 'changes-requested', reasons: ['src/user.py:2 does not set active'] },
    });
    const tools = requests[0]!.body.tools.map((t: { name: string }) => t.name);
    assert.deepEqual(tools, ['read_file', 'list_dir', 'search', 'run_command', 'verdict'], 'nothing that writes');
    assert.match(JSON.stringify(requests[0]!.body.system), /You are reviewing a change/);
  });

  it('a model response read back from the journal that is not a model turn fails the run, naming the turn', async () => {
    const { result, requests } = await runLaneDirectly([], {
      call: async (spec) =>
        ({
          status: 'ok',
          value: spec.kind === 'model' ? { content: 'garbage' } : undefined,
          replayed: true,
          idempotencyKey: 'k',
        }) as never,
    });
    assert.equal(result.status, 'failed');
    assert.match(
      result.failureReason!,
      /^the journal's model response for turn 1 is not a model turn \(content: .*\); the run cannot resume from it$/,
    );
    assert.equal(requests.length, 0, 'nothing was sent');
  });

  it("a fix attempt gets the previous attempt's feedback in its task message", async () => {
    const { result, requests } = await runLaneDirectly(
      [{ turn: { tools: [{ name: 'finish', input: { summary: 'fixed' } }] } }],
      {
        attempt: { runId: 't1.2', attempt: 2, retryReason: 'verify-failed' },
        feedback: 'pytest -q: FAILED tests/test_user.py::test_active',
      } as Partial<LaneRunInput>,
    );
    assert.equal(result.status, 'succeeded');
    const task = JSON.stringify(requests[0]!.body.messages[0]);
    assert.match(task, /This is attempt 2; the previous attempt failed with: verify-failed/);
    assert.match(
      task,
      /Feedback on the previous attempt \(address it\):\\npytest -q: FAILED tests\/test_user.py::test_active/,
    );
  });
});

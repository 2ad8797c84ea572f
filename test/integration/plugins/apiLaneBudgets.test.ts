import assert from 'node:assert/strict';
import { API_LANES, apiLaneProject } from './apiLaneHarness';

const [anthropic, openai] = API_LANES;

/**
 * Budgets per attempt (tool calls, tokens) and per task (cost): the run fails naming the cap and the last real error.
 */
describe('API lane budgets', function () {
  this.timeout(20_000);

  for (const c of [anthropic, openai]) {
    it(`${c.lane}: max executions, with the last real error in the reason`, async () => {
      const failing = 'sh run_tests.sh';
      const t = await apiLaneProject(
        c,
        [
          {
            turn: {
              tools: [
                { name: 'read_file', input: { path: 'src/user.py' } },
                { name: 'run_command', input: { command: failing } },
              ],
            },
          },
          {
            turn: {
              tools: [{ name: 'edit_file', input: { path: 'src/user.py', search: 'name}', replace: 'name }' } }],
            },
          },
          { turn: { tools: [{ name: 'run_command', input: { command: failing } }] } },
        ],
        { maxExecutions: 3 },
      );
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        const state = await t.project.state();
        assert.equal(state.tasks[0]!.state, 'FAILED');
        assert.equal(state.runs[0]!.failureCode, 'budget-exceeded');
        assert.equal(state.runs.length, 1, 'a budget hit is not retried');
        assert.equal(
          state.tasks[0]!.failureReason,
          'exceeded max executions (3): last error: `sh run_tests.sh` exit 1: FAILED tests/test_user.py::test_create - assert 1 == 2',
        );
        assert.equal(t.server.requests.length, 3);
        assert.equal(
          (await t.journal()).filter((e) => e.type === 'intent' && e.kind === 'tool').length,
          3,
          'the fourth call never ran',
        );
      } finally {
        await t.cleanup();
      }
    });
  }

  it('token budget: the next model call is not made once the attempt has used its tokens', async () => {
    const t = await apiLaneProject(
      anthropic,
      [
        {
          turn: { tools: [{ name: 'search', input: { pattern: 'no-such-text-anywhere' } }] },
          usage: { input: 900, output: 150 },
        },
      ],
      { maxTokens: 1_000 },
    );
    try {
      await t.project.tasks.add({ title: 'x' });
      await t.project.runQueue();
      const state = await t.project.state();
      assert.equal(state.runs[0]!.failureCode, 'budget-exceeded');
      assert.equal(
        state.tasks[0]!.failureReason,
        'exceeded token budget (1000 tokens; used 1050): last error: none (no tool or model call had failed)',
      );
      assert.equal(t.server.requests.length, 1);
    } finally {
      await t.cleanup();
    }
  });

  it('task cost cap: priced from the manifest, checked before each model call', async () => {
    // claude-sonnet-4-5 at $3 / $15 per million tokens: 3000 in + 100 out = $0.0105.
    const t = await apiLaneProject(
      anthropic,
      [
        { httpError: { status: 500, type: 'api_error', message: 'Internal server error' } },
        { turn: { tools: [{ name: 'list_dir', input: {} }] }, usage: { input: 3_000, output: 100 } },
      ],
      { maxTaskCostUsd: 0.01 },
    );
    try {
      await t.project.tasks.add({ title: 'x' });
      await t.project.runQueue();
      const state = await t.project.state();
      assert.equal(state.runs[0]!.failureCode, 'budget-exceeded');
      assert.equal(
        state.tasks[0]!.failureReason,
        'exceeded the task cost cap ($0.0100; spent $0.0105): last error: HTTP 500 api_error: Internal server error',
      );
      assert.ok(Math.abs(state.runs[0]!.usage!.costUsd - 0.0105) < 1e-12);
      assert.equal(t.server.requests.length, 2);
    } finally {
      await t.cleanup();
    }
  });

  it('task cost cap: what earlier attempts of the task cost counts against it', async () => {
    const overloaded = { httpError: { status: 529, type: 'overloaded_error', message: 'Overloaded' } };
    const t = await apiLaneProject(
      anthropic,
      [
        // Attempt 1 spends $0.006 (2000 input tokens), then fails on overload.
        { turn: { tools: [{ name: 'list_dir', input: {} }] }, usage: { input: 2_000, output: 0 } },
        overloaded,
        overloaded,
        // Attempt 2 spends $0.0045 more: together past the $0.01 cap.
        { turn: { tools: [{ name: 'list_dir', input: {} }] }, usage: { input: 1_500, output: 0 } },
      ],
      { maxTaskCostUsd: 0.01, retry: { maximumAttempts: 2, initialIntervalMs: 5, jitter: 0 } },
    );
    try {
      await t.project.tasks.add({ title: 'x' });
      await t.project.runQueue();
      const state = await t.project.state();
      assert.deepEqual(
        state.runs.map((r) => r.failureCode),
        ['lane-exit', 'budget-exceeded'],
      );
      assert.equal(state.tasks[0]!.state, 'FAILED');
      assert.equal(
        state.runs[1]!.failureReason,
        'exceeded the task cost cap ($0.0100; spent $0.0105, $0.0060 of it in earlier runs): last error: none (no tool or model call had failed)',
      );
      assert.equal(t.server.requests.length, 4);
    } finally {
      await t.cleanup();
    }
  });
});

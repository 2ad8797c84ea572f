import assert from 'node:assert/strict';
import { formatStatus } from '../../../src/cli/format';
import { API_LANES, apiLaneProject, lastToolResult, toolResultsIn } from './apiLaneHarness';

/**
 * The `anthropic` and `openai-compatible` lanes end to end: the real lane,
 * the real provider library and the real engine against a local server that
 * speaks each wire protocol (test/fixtures/anthropicServer.ts, openaiServer.ts).
 */
for (const c of API_LANES) {
  describe(`${c.lane} lane (local ${c.lane === 'anthropic' ? 'Messages' : 'chat completions'} server)`, function () {
    this.timeout(20_000);

    it('does a multi-tool task: lists, reads, edits, writes, runs a command, finishes', async () => {
      const t = await apiLaneProject(
        c,
        [
          {
            turn: {
              text: 'Let me look around.',
              tools: [
                { name: 'list_dir', input: {} },
                { name: 'read_file', input: { path: 'src/user.py' } },
              ],
            },
            usage: { input: 1000, output: 50 },
          },
          {
            turn: {
              tools: [
                {
                  name: 'edit_file',
                  input: {
                    path: 'src/user.py',
                    search: 'return {"name": name}',
                    replace: 'return {"name": name, "active": True}',
                  },
                },
                {
                  name: 'write_file',
                  input: {
                    path: 'tests/test_active.py',
                    content:
                      'from src.user import create_user\n\ndef test_active():\n    assert create_user("a")["active"]\n',
                  },
                },
              ],
            },
            usage: { input: 1200, output: 80 },
          },
          {
            turn: {
              tools: [{ name: 'run_command', input: { command: 'grep -c active src/user.py tests/test_active.py' } }],
            },
            usage: { input: 1400, output: 30 },
          },
          {
            turn: {
              text: 'Done.',
              tools: [{ name: 'finish', input: { summary: 'create_user now sets active; added a test' } }],
            },
            usage: { input: 1500, output: 40 },
          },
        ],
        c.lane === 'openai-compatible' ? { price: { inputPerMTokUsd: 1, outputPerMTokUsd: 2 } } : {},
      );
      try {
        await t.project.tasks.add({
          title: 'Users are active',
          spec: 'New users must be active.',
          files: ['src/user.py'],
        });
        await t.project.runQueue();
        const state = await t.project.state();
        assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
        const run = state.runs[0]!;
        assert.equal(run.summary, 'create_user now sets active; added a test');
        assert.equal(
          await t.file('src/user.py'),
          'def create_user(name):\n    return {"name": name, "active": True}\n',
        );
        assert.match(await t.file('tests/test_active.py'), /def test_active/);
        assert.match(await t.project.runs.diff('t1.1'), /\+ {4}return \{"name": name, "active": True\}/);

        // The server saw four requests, each answering the previous turn's tools.
        const bodies = t.server.requests.map((r) => r.body);
        assert.equal(bodies.length, 4);
        assert.equal(bodies[0].stream, true);
        assert.deepEqual(
          toolResultsIn(bodies[1]).map((r) => r.text.split('\n')[0]),
          ['README.md', 'def create_user(name):'],
        );
        assert.match(toolResultsIn(bodies[2])[0]!.text, /edited src\/user\.py at line 2/);
        assert.match(lastToolResult(bodies[3]).text, /exit code 0[\s\S]*src\/user\.py:1\ntests\/test_active\.py:2/);
        const names = JSON.stringify(bodies[0].tools);
        for (const tool of ['read_file', 'list_dir', 'search', 'write_file', 'edit_file', 'run_command', 'finish'])
          assert.ok(names.includes(tool), tool);
        if (c.lane === 'anthropic') assert.equal(t.server.requests[0]!.headers['x-api-key'], c.key);
        else assert.equal(t.server.requests[0]!.headers.authorization, `Bearer ${c.key}`);

        // Usage and cost from the provider's usage fields × the price table (the manifest's, or the project's
        // override).
        assert.deepEqual({ i: run.usage!.inputTokens, o: run.usage!.outputTokens }, { i: 5100, o: 200 });
        const expected = c.lane === 'anthropic' ? (5100 * 3 + 200 * 15) / 1e6 : (5100 * 1 + 200 * 2) / 1e6;
        assert.ok(Math.abs(run.usage!.costUsd - expected) < 1e-12, `cost ${run.usage!.costUsd} vs ${expected}`);
        const status = formatStatus(state);
        assert.match(status, new RegExp(`t1 Users are active · cost \\$${expected.toFixed(4)}`));
        assert.match(status, new RegExp(`5100\\+200 tokens \\$${expected.toFixed(4)}`));
        assert.match(status, new RegExp(`^1 DONE; total cost \\$${expected.toFixed(4)}$`, 'm'));

        // The journal: 4 model calls and 5 tool calls (finish is not a durable call), each with its replay rule.
        const intents = (await t.journal()).filter((e) => e.type === 'intent');
        assert.deepEqual(
          intents.map((e) => `${e.kind}:${e.name}:${e.replay}`),
          [
            `model:${c.lane === 'anthropic' ? 'anthropic.messages' : 'openai-compatible.chat'}:safe`,
            'tool:list_dir:safe',
            'tool:read_file:safe',
            `model:${c.lane === 'anthropic' ? 'anthropic.messages' : 'openai-compatible.chat'}:safe`,
            'tool:edit_file:safe',
            'tool:write_file:safe',
            `model:${c.lane === 'anthropic' ? 'anthropic.messages' : 'openai-compatible.chat'}:safe`,
            'tool:run_command:never',
            `model:${c.lane === 'anthropic' ? 'anthropic.messages' : 'openai-compatible.chat'}:safe`,
          ],
        );

        // Normalized events: text, tool calls and results, usage per call.
        const lane = t.laneEvents();
        assert.ok(lane.some((e) => e.type === 'text' && e.text === 'Let me look around.'));
        assert.equal(lane.filter((e) => e.type === 'tool-call').length, 5);
        assert.equal(lane.filter((e) => e.type === 'tool-result').length, 5);
        assert.equal(lane.filter((e) => e.type === 'usage').length, 4);
      } finally {
        await t.cleanup();
      }
    });

    const finish = { turn: { tools: [{ name: 'finish', input: { summary: 'done' } }] } };
    const readTurn = { turn: { tools: [{ name: 'read_file', input: { path: 'README.md' } }] } };

    it('a stream cut mid-way (socket closed) is retried: the same request again, counted once', async () => {
      const t = await apiLaneProject(c, [{ ...readTurn, dropAfterEvents: 4 }, readTurn, finish]);
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        const state = await t.project.state();
        assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
        assert.equal(t.server.requests.length, 3);
        assert.deepEqual(
          t.server.requests[1]!.body,
          t.server.requests[0]!.body,
          'the cut call was sent again as it was',
        );
        const progress = t
          .laneEvents()
          .filter((e) => e.type === 'progress')
          .map((e) => String(e.message));
        assert.ok(
          progress.some((m) =>
            /model call failed: connection failed: .*terminated.*; retrying in \d+ ms .*transient \(connection-failed\)/.test(
              m,
            ),
          ),
          progress.join('\n'),
        );
        const models = (await t.journal()).filter((e) => e.type === 'intent' && e.kind === 'model');
        assert.equal(models.length, 2, 'one durable model call per turn; the retry is inside it');
        assert.equal(state.runs[0]!.usage!.inputTokens, 200, 'only the two complete responses are counted');
      } finally {
        await t.cleanup();
      }
    });

    it('a stream that goes silent is cut after streamIdleTimeoutMs and the call retried', async () => {
      const t = await apiLaneProject(c, [{ hang: true }, finish], { streamIdleTimeoutMs: 300 });
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        assert.equal((await t.project.state()).tasks[0]!.state, 'DONE');
        assert.equal(t.server.requests.length, 2);
        const progress = t
          .laneEvents()
          .filter((e) => e.type === 'progress')
          .map((e) => String(e.message))
          .join('\n');
        assert.match(
          progress,
          /model call failed: stream timed out: nothing from the server for 300 ms; retrying .*transient/,
        );
      } finally {
        await t.cleanup();
      }
    });

    it('429 with retry-after: waits as long as the server asked, then goes on', async () => {
      const t = await apiLaneProject(c, [
        {
          httpError: {
            status: 429,
            type: 'rate_limit_error',
            message: 'Number of request tokens has exceeded your per-minute rate limit',
            headers: { 'retry-after': '1' },
          },
        },
        finish,
      ]);
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        assert.equal((await t.project.state()).tasks[0]!.state, 'DONE');
        const [first, second] = t.server.requests;
        assert.ok(second!.at - first!.at >= 1_000, `waited ${second!.at - first!.at} ms, the server asked for 1 s`);
        const progress = t
          .laneEvents()
          .filter((e) => e.type === 'progress')
          .map((e) => String(e.message));
        assert.ok(
          progress.some(
            (m) =>
              m.includes('HTTP 429') &&
              m.includes('rate limit') &&
              m.includes('as the server asked (Retry-After)') &&
              m.includes('rate-limited'),
          ),
          progress.join('\n'),
        );
      } finally {
        await t.cleanup();
      }
    });

    it('529 overloaded, a 524 from a proxy and an error event mid-stream are transient: retried with backoff', async () => {
      const t = await apiLaneProject(c, [
        { httpError: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
        {
          httpError: {
            status: 524,
            type: '',
            message: '',
            rawBody: '<html><body>error code: 524 A timeout occurred</body></html>',
          },
        },
        { streamError: { type: 'overloaded_error', message: 'Overloaded' } },
        finish,
      ]);
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        assert.equal((await t.project.state()).tasks[0]!.state, 'DONE');
        const progress = t
          .laneEvents()
          .filter((e) => e.type === 'progress')
          .map((e) => String(e.message))
          .join('\n');
        assert.match(progress, /HTTP 529 overloaded_error: Overloaded; retrying .*transient \(overloaded\)/);
        assert.match(progress, /HTTP 524.*; retrying .*transient \(edge-timeout\)/);
        assert.match(
          progress,
          /stream error overloaded_error: Overloaded; retrying .*transient \(overloaded\), attempt 4 of 4/,
        );
      } finally {
        await t.cleanup();
      }
    });

    it("retries that run out fail the run with the status and the provider's message", async () => {
      const overloaded = { httpError: { status: 529, type: 'overloaded_error', message: 'Overloaded' } };
      const t = await apiLaneProject(c, [overloaded, overloaded, overloaded]);
      try {
        await t.project.settings.update((s) => {
          s.retryCaps[c.lane] = 1;
        });
        await t.project.settings.update((s) => {
          (s.laneSettings[c.lane]!.retry as Record<string, number>).maximumAttempts = 3;
        });
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        const state = await t.project.state();
        assert.equal(state.runs[0]!.failureCode, 'lane-exit');
        assert.equal(
          state.tasks[0]!.failureReason,
          "model call failed after 3 attempt(s): HTTP 529 overloaded_error: Overloaded (transient: overloaded) (failed 1 attempt, the lane's limit)",
        );
        assert.equal(t.server.requests.length, 3);
      } finally {
        await t.cleanup();
      }
    });

    it('a permanent refusal (401) is not retried and is not a retryable failure', async () => {
      const t = await apiLaneProject(c, [
        { httpError: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
      ]);
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        const state = await t.project.state();
        assert.equal(state.tasks[0]!.state, 'FAILED');
        assert.equal(state.runs.length, 1, 'no second attempt');
        assert.equal(state.runs[0]!.failureCode, 'provider-rejected');
        assert.equal(
          state.tasks[0]!.failureReason,
          'model call failed after 1 attempt(s): HTTP 401 authentication_error: invalid x-api-key (permanent: auth-invalid)',
        );
        assert.equal(t.server.requests.length, 1);
      } finally {
        await t.cleanup();
      }
    });

    it('malformed JSON in tool arguments: the model reads a tool error and recovers', async () => {
      const t = await apiLaneProject(c, [
        { turn: { tools: [{ name: 'write_file', rawArguments: '{"path": "notes.txt", "content": "first' }] } },
        { turn: { tools: [{ name: 'write_file', input: { path: 'notes.txt', content: 'second try\n' } }] } },
        finish,
      ]);
      try {
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        assert.equal((await t.project.state()).tasks[0]!.state, 'DONE');
        const error = lastToolResult(t.server.requests[1]!.body);
        assert.match(error.text, /^invalid call of write_file: .*JSON.*Send the call again with valid JSON arguments/s);
        if (c.lane === 'anthropic') assert.equal(error.isError, true);
        assert.equal(await t.file('notes.txt'), 'second try\n');
        const tools = (await t.journal()).filter((e) => e.type === 'intent' && e.kind === 'tool');
        assert.equal(tools.length, 1, 'the malformed call never reached a tool');
      } finally {
        await t.cleanup();
      }
    });

    it('a path that escapes the worktree is refused with an error the model can read', async () => {
      const t = await apiLaneProject(c, [
        {
          turn: {
            tools: [
              { name: 'read_file', input: { path: '../../../../etc/passwd' } },
              { name: 'write_file', input: { path: '/tmp/switchyard-escape.txt', content: 'x' } },
              { name: 'list_dir', input: { path: 'src/../..' } },
              { name: 'read_file', input: { path: 'link-out/hostname' } },
            ],
          },
        },
        finish,
      ]);
      try {
        // A symlink committed in the repository that points outside it.
        const { symlink } = await import('node:fs/promises');
        await symlink('/etc', `${t.repo.dir}/link-out`);
        await t.repo.git('add', 'link-out');
        await t.repo.git('commit', '-m', 'a symlink out');
        await t.project.tasks.add({ title: 'x' });
        await t.project.runQueue();
        assert.equal((await t.project.state()).tasks[0]!.state, 'DONE');
        const results = toolResultsIn(t.server.requests[1]!.body).map((r) => r.text);
        assert.match(results[0]!, /path "..\/..\/..\/..\/etc\/passwd" leaves the worktree/);
        assert.match(results[1]!, /path "\/tmp\/switchyard-escape.txt" is absolute/);
        assert.match(results[2]!, /path "src\/..\/.." leaves the worktree/);
        assert.match(results[3]!, /path "link-out\/hostname" goes through a symlink that leads outside the worktree/);
        const { existsSync } = await import('node:fs');
        assert.equal(existsSync('/tmp/switchyard-escape.txt'), false);
      } finally {
        await t.cleanup();
      }
    });
  });
}

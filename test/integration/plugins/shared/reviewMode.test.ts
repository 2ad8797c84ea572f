import assert from 'node:assert/strict';
import { createClaudeCodeLane } from '../../../../plugins/claude-code';
import { createCodexLane } from '../../../../plugins/codex';
import { createCursorAgentLane } from '../../../../plugins/cursor-agent';
import { parseVerdict } from '../../../../plugins/shared/reviewVerdict';
import type { LanePlugin, LaneResult } from '../../../../src/api';
import { FAKE_KEYS } from '../../../helpers/cliLaneProject';
import { standIn, type StandInCli, type Step } from '../../../helpers/cliStandIns';
import { makeTempDir } from '../../../helpers/tempRepo';

describe('CLI lanes as reviewers (mode: review)', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.cleanup());

  async function review(
    lane: LanePlugin,
    cli: StandInCli,
    steps: Step[],
  ): Promise<{ result: LaneResult; argv: string[]; prompt: string }> {
    const fake = await standIn(tmp.dir, cli, [steps]);
    const result = await lane.run({
      task: {
        id: 't1',
        title: 'Add health',
        spec: 'Add health()\n\n## Diff to review\n```diff\n+export const health = 1;\n```',
        files: [],
      },
      workspaceDir: tmp.dir,
      env: { PATH: process.env.PATH ?? '' },
      attempt: { runId: 't1.1.review', attempt: 1, parentRunId: 't1.1' },
      mode: 'review',
      settings: { binary: fake.binary },
      secrets: FAKE_KEYS,
      signal: new AbortController().signal,
      emit: () => undefined,
      call: () => Promise.reject(new Error('no durable calls')),
    });
    const [call] = await fake.invocations();
    return { result, argv: call!.argv, prompt: call!.prompt };
  }

  it('a claude reviewer that tries an edit is denied it and still gives its verdict (a denial does not fail a review)', async () => {
    const answer = 'Looks right.\n{"verdict":"approve","reasons":[]}';
    const { result } = await review(createClaudeCodeLane(), 'claude', [
      { emit: { type: 'system', subtype: 'init', session_id: 's-review' } },
      {
        emit: {
          type: 'assistant',
          message: {
            id: 'msg_1',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: '/x', content: 'y' } }],
          },
          session_id: 's-review',
        },
      },
      {
        emit: {
          type: 'result',
          subtype: 'success',
          is_error: false,
          result: answer,
          session_id: 's-review',
          permission_denials: [{ tool_name: 'Write', tool_use_id: 'toolu_1', tool_input: {} }],
        },
      },
    ]);
    assert.equal(result.status, 'succeeded');
    assert.deepEqual(result.review, { verdict: 'approve', reasons: [] });
  });

  it('claude reviews read-only and its final JSON line is the verdict', async () => {
    const answer =
      'Looks fine, but health() should return 200.\n{"verdict": "changes-requested", "reasons": ["health() returns 1, the task says 200"]}';
    const { result, argv, prompt } = await review(createClaudeCodeLane(), 'claude', [
      { emit: { type: 'system', subtype: 'init', session_id: 's-review' } },
      {
        emit: {
          type: 'result',
          subtype: 'success',
          is_error: false,
          result: answer,
          session_id: 's-review',
          total_cost_usd: 0.01,
        },
      },
    ]);
    assert.deepEqual(result.review, {
      verdict: 'changes-requested',
      reasons: ['health() returns 1, the task says 200'],
    });
    assert.equal(result.status, 'succeeded');
    assert.ok(!argv.includes('acceptEdits'), `no edit permission for a reviewer: ${argv.join(' ')}`);
    assert.match(
      prompt,
      /^Review the change another agent made for the task "Add health"\. .*\nRead and check it; do not change any file\.\n\nAdd health\(\)\n\n## Diff to review\n/,
    );
    assert.match(prompt, /\{"verdict": "approve", "reasons": \["…"\]\}/);
  });

  it('codex and cursor-agent run read-only; an answer without a verdict has none (the host reports it)', async () => {
    const codex = await review(createCodexLane(), 'codex', [{ replay: 'codex/docs-sample.jsonl' }]);
    assert.equal(codex.result.review, undefined);
    assert.equal(codex.result.summary, 'Yep — there’s a `README.md` in the repository root.');
    assert.deepEqual(codex.argv.slice(0, 4), ['exec', '--json', '--sandbox', 'read-only']);
    const cursor = await review(createCursorAgentLane(), 'cursor-agent', [
      { replay: 'cursor/started.jsonl' },
      {
        emit: {
          type: 'result',
          subtype: 'success',
          is_error: false,
          result: 'All good. {"verdict":"approve","reasons":["matches the spec"]}',
          session_id: 'c',
        },
      },
    ]);
    assert.deepEqual(cursor.result.review, { verdict: 'approve', reasons: ['matches the spec'] });
    assert.ok(!cursor.argv.includes('--force'), cursor.argv.join(' '));
  });

  it('reads the last well-formed verdict', () => {
    assert.deepEqual(parseVerdict('{"verdict":"approve"} then {"verdict": "changes-requested", "reasons": ["x"]}'), {
      verdict: 'changes-requested',
      reasons: ['x'],
    });
    assert.deepEqual(parseVerdict('{"verdict":"approve"} then {"verdict": "maybe"}'), {
      verdict: 'approve',
      reasons: [],
    });
    assert.equal(parseVerdict('no verdict here'), undefined);
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LaneEvent } from '../../../../src/api';
import { parseStreamLine } from '../../../../plugins/shared/parseStreamLine';
import { ClaudeStreamEvent } from '../../../../plugins/claude-code/streamSchema';
import { claudeTranslator } from '../../../../plugins/claude-code/translate';

/** Lines recorded from the real Claude Code 2.1.332 against a local Messages server (see the folder's files). */
const REAL = join('test', 'fixtures', 'cli-streams', 'claude', 'real-2.1.332');
const lines = (file: string): string[] => readFileSync(join(REAL, file), 'utf8').split('\n').filter(Boolean);

function translate(input: string[]) {
  const t = claudeTranslator();
  const events: LaneEvent[] = [];
  for (const raw of input) {
    const line = parseStreamLine(raw, ClaudeStreamEvent);
    assert.notEqual(line.kind, 'unknown', `the schema reads every real line: ${raw.slice(0, 200)}`);
    if (line.kind === 'event') events.push(...t.translate(line.event));
  }
  const usage = events.flatMap((e) => (e.type === 'usage' ? [e.usage] : []));
  const total = usage.reduce(
    (a: { inputTokens: number; outputTokens: number; cacheRead: number; cacheWrite: number; costUsd: number }, u) => ({
      inputTokens: a.inputTokens + (u.inputTokens ?? 0),
      outputTokens: a.outputTokens + (u.outputTokens ?? 0),
      cacheRead: a.cacheRead + (u.cacheReadTokens ?? 0),
      cacheWrite: a.cacheWrite + (u.cacheWriteTokens ?? 0),
      costUsd: a.costUsd + (u.costUsd ?? 0),
    }),
    { inputTokens: 0, outputTokens: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 },
  );
  // A sum of float costs, to 1e-10 USD.
  return { events, outcome: t.outcome, total: { ...total, costUsd: Number(total.costUsd.toFixed(10)) } };
}

describe('claude-code translator on the real 2.1.332 stream', () => {
  it("a normal run: every line parses, the total usage is the result's modelUsage and cost", () => {
    const { outcome, total } = translate(lines('normal.jsonl'));
    assert.equal(outcome.succeeded, true);
    assert.deepEqual(total, { inputTokens: 200, outputTokens: 27, cacheRead: 0, cacheWrite: 0, costUsd: 0.00134 });
  });

  it('killed before its result: the API calls that finished are counted once each, although each message repeats its usage per content block', () => {
    const all = lines('normal.jsonl');
    const { outcome, total } = translate(all.slice(0, -1));
    assert.equal(outcome.finished, false);
    // msg_0 (text + tool_use: two lines, one usage) and msg_1: 100 input tokens each; output as of message_start
    // (a stream without --include-partial-messages has no more), priced at the lane's price of claude-opus-5-5.
    assert.deepEqual(total, { inputTokens: 200, outputTokens: 2, cacheRead: 0, cacheWrite: 0, costUsd: 0.00084 });
  });

  it("with --include-partial-messages, killed before its result: each finished call's final usage (its message_delta), priced by the lane; with the result, the total is Claude Code’s own cost", () => {
    const all = lines('partial-messages.jsonl');
    const killed = translate(all.slice(0, -1));
    assert.equal(killed.outcome.finished, false);
    // Two calls of 100 input and 20 output tokens, at the price of the model the server named (claude-sonnet-4-5:
    // $3 / $15 per million tokens).
    assert.deepEqual(killed.total, {
      inputTokens: 200,
      outputTokens: 40,
      cacheRead: 0,
      cacheWrite: 0,
      costUsd: 0.0012,
    });
    const whole = translate(all);
    assert.equal(whole.outcome.succeeded, true);
    // The result adds no token and the rest of Claude Code's cost (claude-opus-5-5 at $4 / $20): 0.0016 in all.
    assert.deepEqual(whole.total, {
      inputTokens: 200,
      outputTokens: 40,
      cacheRead: 0,
      cacheWrite: 0,
      costUsd: 0.0016,
    });
    // The rest of the raw stream is no event of ours.
    assert.equal(whole.events.filter((e) => e.type === 'log' && e.line.includes('stream_event')).length, 0);
  });

  it("error_during_execution: modelUsage totals, not the last call's usage, and the [ede_diagnostic] note after the real error", () => {
    const result = {
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      session_id: 's1',
      total_cost_usd: 0.05,
      usage: { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 },
      modelUsage: {
        'claude-opus-5-5': {
          inputTokens: 3000,
          outputTokens: 400,
          cacheReadInputTokens: 1000,
          cacheCreationInputTokens: 200,
          costUSD: 0.049,
        },
        'claude-haiku-4-5': {
          inputTokens: 100,
          outputTokens: 10,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
          costUSD: 0.001,
        },
      },
      errors: [
        '[ede_diagnostic] result_type=user last_content_type=tool_result stop_reason=tool_use',
        'Error: stream interrupted',
      ],
      permission_denials: [],
    };
    const { outcome, total } = translate([lines('normal.jsonl')[1]!, JSON.stringify(result)]);
    // The whole prompt, with the parts read from and written to Claude's prompt cache kept apart too.
    assert.deepEqual(total, {
      inputTokens: 4300,
      outputTokens: 410,
      cacheRead: 1000,
      cacheWrite: 200,
      costUsd: 0.05,
    });
    assert.equal(outcome.succeeded, false);
    assert.equal(
      outcome.error,
      'Error: stream interrupted; [ede_diagnostic] result_type=user last_content_type=tool_result stop_reason=tool_use',
    );
  });

  it("a 429 after the CLI's retries: the synthetic message is the error with its HTTP status, not model text", () => {
    const { events, outcome } = translate(lines('api-error-429.jsonl'));
    assert.deepEqual(
      events.filter((e) => e.type === 'text'),
      [],
    );
    assert.equal(outcome.succeeded, false);
    assert.equal(
      outcome.error,
      'API error (HTTP 429 rate_limit_error): API Error: Request rejected (429) · rate_limit_error msg',
    );
    assert.equal(outcome.workEvents, 0, 'an API error is no work (a session that did none may be replaced)');
  });

  it("connection refused: the CLI's kind of error is named", () => {
    const { outcome } = translate(lines('connection-refused.jsonl'));
    assert.match(outcome.error!, /^API error \(connection_failed\): API Error: Connection refused .*\(ECONNREFUSED\)$/);
  });

  it('every edit denied: the run fails as permission-denied naming the tool; some denied: a warning', () => {
    const denied = translate(lines('permission-denied.jsonl'));
    assert.equal(denied.outcome.succeeded, true, 'the CLI calls it a success');
    assert.equal(denied.outcome.failureCode, 'permission-denied', 'the lane fails a work run with it');
    assert.match(denied.outcome.error!, /^claude was denied every edit and command it asked for: Write\. /);
    assert.ok(
      denied.events.some(
        (e) =>
          e.type === 'progress' &&
          /^claude was denied Write: Claude requested permissions to write to /.test(e.message),
      ),
    );

    const partial = translate(lines('partial-denial.jsonl'));
    assert.equal(partial.outcome.succeeded, true);
    assert.equal(partial.outcome.failureCode, undefined);
    assert.deepEqual(partial.outcome.warnings, ['claude was denied 1 tool call(s): Bash; the others ran']);
  });
});

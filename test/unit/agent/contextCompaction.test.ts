import assert from 'node:assert/strict';
import type { ModelMessage } from 'ai';
import {
  COMPACT_TO,
  KEEP_LATEST,
  capToolOutput,
  compactConversation,
  estimateTokens,
} from '../../../src/core/agent/contextCompaction';

/** A conversation of `turns` tool calls whose results are `size` characters each. */
function conversation(turns: number, size: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Task: summarise the logs' }];
  for (let n = 1; n <= turns; n++) {
    const id = `call_${n}`;
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'run_command', input: { command: `cat log${n}` } }],
    });
    const text = `log ${n} begins\n${'x'.repeat(size - 40)}\nlog ${n} ends`;
    messages.push({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: id, toolName: 'run_command', output: { type: 'text', value: text } },
      ],
    });
  }
  return messages;
}

const total = (messages: ModelMessage[], fixed: number) => fixed + messages.reduce((n, m) => n + estimateTokens(m), 0);

describe('context compaction', () => {
  it('leaves a conversation under 80% of the window alone', () => {
    const messages = conversation(3, 2_000);
    const copy = structuredClone(messages);
    assert.equal(compactConversation(messages, { window: 32_768, fixedTokens: 1_500 }), undefined);
    assert.deepEqual(messages, copy);
  });

  it('cuts older tool results to head and tail first, keeping the task and the latest turns whole', () => {
    const messages = conversation(6, 20_000);
    const latest = structuredClone(messages.slice(-KEEP_LATEST));
    const report = compactConversation(messages, { window: 32_768, fixedTokens: 1_500 })!;
    assert.ok(report.before > 32_768 * 0.8);
    assert.ok(report.after <= 32_768 * COMPACT_TO, `${report.after}`);
    assert.equal(report.after, total(messages, 1_500));
    assert.equal(report.removedTurns, 0);
    assert.ok(report.cutResults >= 1);
    assert.deepEqual(messages[0], { role: 'user', content: 'Task: summarise the logs' });
    assert.deepEqual(messages.slice(-KEEP_LATEST), latest);
    const cut = (messages[2] as any).content[0].output.value as string;
    assert.match(cut, /^\[Switchyard cut this older tool result to its first 800 and last 400 characters/);
    assert.match(cut, /call the tool again if you need the rest\]\nlog 1 begins/);
    assert.match(cut, /log 1 ends$/);
  });

  it('removes the earliest turns whole, with a note, when cutting is not enough; calls keep their results', () => {
    const messages = conversation(200, 20_000);
    const report = compactConversation(messages, { window: 32_768, fixedTokens: 1_500 })!;
    assert.ok(report.after <= 32_768 * COMPACT_TO, `${report.after}`);
    assert.ok(report.removedTurns > 100, `${report.removedTurns}`);
    assert.equal(messages[0]!.content, 'Task: summarise the logs');
    assert.match(String(messages[1]!.content), /^\[Switchyard removed \d+ earlier turn\(s\)/);
    assert.equal(messages[2]!.role, 'assistant');
    for (const [i, m] of messages.entries()) {
      if (m.role !== 'tool') continue;
      const call = (messages[i - 1] as any).content[0].toolCallId;
      assert.equal((m as any).content[0].toolCallId, call, 'every result follows its call');
    }
    assert.match(String((messages.at(-1) as any).content[0].output.value), /^log 200 begins/);
    // Again later: the note counts all removed turns; the same input compacts the same way.
    const again = conversation(200, 20_000);
    compactConversation(again, { window: 32_768, fixedTokens: 1_500 });
    assert.deepEqual(again, messages, 'deterministic');
  });

  it('the removal note counts every removed turn across compactions', () => {
    const messages = conversation(40, 20_000);
    const first = compactConversation(messages, { window: 32_768, fixedTokens: 1_500 })!;
    for (let n = 41; n <= 80; n++) messages.push(...conversation(n, 20_000).slice(-2));
    const second = compactConversation(messages, { window: 32_768, fixedTokens: 1_500 })!;
    const removed = first.removedTurns + second.removedTurns;
    assert.match(String(messages[1]!.content), new RegExp(`^\\[Switchyard removed ${removed} earlier turn`));
  });

  it('a tool output longer than the per-call cap keeps its head and tail and says what was cut', () => {
    assert.equal(capToolOutput('short', 100), 'short');
    const capped = capToolOutput(`HEAD${'y'.repeat(50_000)}TAIL`, 8_000);
    assert.ok(capped.startsWith('HEAD') && capped.endsWith('TAIL'));
    assert.match(capped, /\[… 42008 characters cut here: this output is longer than one tool call may send \(8000/);
  });
});

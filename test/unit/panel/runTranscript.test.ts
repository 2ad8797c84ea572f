import * as assert from 'node:assert/strict';
import { RunTranscript } from '../../../src/core/panel/panelProtocol';
import { runTranscript, TRANSCRIPT_ENTRIES } from '../../../src/core/panel/runTranscript';
import type { RunLogLine } from '../../../src/core/store/runFiles';

const at = (type: string, event: Record<string, unknown>): RunLogLine => ({ ts: '2026-01-01T00:00:00Z', type, event });

describe('runTranscript: what the lane said and did, for the panel', function () {
  it('pairs each tool call with its result, groups output lines, keeps text and usage, skips the rest', function () {
    const t = runTranscript('t1.1', [
      { ts: '2026-01-01T00:00:00Z', type: 'decision', message: 'run t1.1 started' },
      at('lane', { type: 'text', text: 'I will edit a.ts' }),
      at('lane', { type: 'tool-call', callId: 'c1', name: 'edit_file', input: { path: 'a.ts' } }),
      at('lane', { type: 'log', stream: 'stderr', line: 'warn 1' }),
      at('lane', { type: 'log', stream: 'stderr', line: 'warn 2' }),
      at('lane', { type: 'tool-result', callId: 'c1', output: 'ok', isError: false }),
      at('lane', { type: 'tool-call', callId: 'c2', name: 'bash', input: 'npm test' }),
      at('lane', { type: 'tool-result', callId: 'c2', output: 'exit 1', isError: true }),
      at('review', { type: 'text', text: 'review text is not the lane transcript' }),
      at('lane', { type: 'usage', usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.5 } }),
      at('lane', { type: 'session', sessionId: 's' }),
    ]);
    assert.deepEqual(t, {
      runId: 't1.1',
      omitted: 0,
      entries: [
        { kind: 'text', text: 'I will edit a.ts' },
        { kind: 'tool', name: 'edit_file', input: '{\n  "path": "a.ts"\n}', output: 'ok', isError: false },
        { kind: 'log', stream: 'stderr', lines: ['warn 1', 'warn 2'] },
        { kind: 'tool', name: 'bash', input: 'npm test', output: 'exit 1', isError: true },
        { kind: 'usage', text: '10 input, 2 output tokens, $0.5000' },
      ],
    });
    assert.ok(RunTranscript.safeParse(t).success, 'the transcript passes the panel protocol schema');
  });

  it('is absent without lane events, and keeps the last entries of a long run', function () {
    assert.equal(runTranscript('t1.1', [{ ts: 'x', type: 'decision', message: 'm' }]), undefined);
    const many = Array.from({ length: TRANSCRIPT_ENTRIES + 5 }, (_, i) => at('lane', { type: 'text', text: `n${i}` }));
    const t = runTranscript('t1.2', many)!;
    assert.equal(t.omitted, 5);
    assert.equal(t.entries.length, TRANSCRIPT_ENTRIES);
    assert.deepEqual(t.entries[0], { kind: 'text', text: 'n5' });
  });

  it('makes untrusted text plain', function () {
    const t = runTranscript('t1.1', [
      at('lane', { type: 'text', text: '\u001b]8;;http://x\u0007link\u001b]8;;\u0007 ok' }),
    ])!;
    assert.deepEqual(t.entries, [{ kind: 'text', text: 'link ok' }]);
  });
});

import * as assert from 'node:assert/strict';
import { runEventStep, runEventText } from '../../../src/core/text/runEventText';

describe('runEventText: a run event as the lines of its output', function () {
  it('shows text, logs, tool calls and results, usage and decisions', function () {
    assert.deepEqual(runEventText('lane', { event: { type: 'text', text: 'Reading the file\nthen editing' } }), [
      'Reading the file',
      'then editing',
    ]);
    assert.deepEqual(runEventText('lane', { event: { type: 'log', stream: 'stderr', line: 'warn: x' } }), [
      '[stderr] warn: x',
    ]);
    assert.deepEqual(
      runEventText('lane', { event: { type: 'tool-call', callId: 'c1', name: 'edit', input: { path: 'a.ts' } } }),
      ['▶ edit {"path":"a.ts"}'],
    );
    assert.deepEqual(
      runEventText('lane', { event: { type: 'tool-result', callId: 'c1', output: 'ok', isError: false } }),
      ['◀ result ok'],
    );
    assert.deepEqual(
      runEventText('review', { event: { type: 'tool-result', callId: 'c', output: 'no', isError: true } }),
      ['review ✖ error no'],
    );
    assert.deepEqual(
      runEventText('lane', {
        event: { type: 'usage', usage: { inputTokens: 120, outputTokens: 30, costUsd: 0.0012 } },
      }),
      ['usage: 120 input, 30 output tokens, $0.0012'],
    );
    assert.deepEqual(runEventText('lane', { event: { type: 'usage', usage: { inputTokens: 5, outputTokens: 1 } } }), [
      'usage: 5 input, 1 output tokens',
    ]);
    assert.deepEqual(runEventText('decision', { message: 'run t1.1 started' }), ['— run t1.1 started']);
    assert.deepEqual(runEventText('verify', { ok: false, output: 'FAIL a\n' }), ['— acceptance failed', '  FAIL a']);
  });

  it('strips escape sequences and control characters from untrusted text', function () {
    const [line] = runEventText('lane', {
      event: { type: 'log', stream: 'stdout', line: '\u001b[31mred\u001b[0m\u0007' },
    });
    assert.equal(line, '[stdout] red');
  });

  it('cuts long tool input and gives a one-line step for the progress notification', function () {
    const [line] = runEventText('lane', {
      event: { type: 'tool-call', callId: 'c', name: 'write', input: 'x'.repeat(1000) },
    });
    assert.ok(line !== undefined && line.length < 320 && line.endsWith('…'), line);
    assert.equal(runEventStep('lane', { event: { type: 'tool-call', callId: 'c', name: 'bash', input: {} } }), 'bash');
    assert.equal(
      runEventStep('lane', { event: { type: 'text', text: 'Looking at\nsrc/a.ts' } }),
      'Looking at src/a.ts',
    );
    assert.equal(runEventStep('decision', { message: 'x' }), undefined);
    assert.equal(runEventStep('lane', { event: { type: 'usage', usage: {} } }), undefined);
  });
});

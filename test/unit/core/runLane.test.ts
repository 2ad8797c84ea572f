import assert from 'node:assert/strict';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { runLane } from '../../../src/core/lanes/runLane';
import type { LaneRunInput, LaneResult } from '../../../src/api';
import { scriptedLane } from '../../helpers/fakeLanes';

function registered(run: (input: LaneRunInput) => Promise<LaneResult>) {
  const registry = new LaneRegistry();
  registry.register(scriptedLane('probe', run));
  return registry.require('probe');
}

const base = {
  task: { id: 't1', title: 'probe', spec: 'do it', files: [] },
  workspaceDir: '/nowhere',
  env: {},
  attempt: { runId: 't1.1', attempt: 1 },
  settings: {},
  secrets: {},
  call: () => Promise.reject(new Error('no journal in this test')),
};

describe('runLane containment', () => {
  it('passes normalized events through and sums usage', async () => {
    const seen: string[] = [];
    const outcome = await runLane(
      registered(async (input) => {
        input.emit({ type: 'text', text: 'hello' });
        input.emit({ type: 'usage', usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.5 } });
        input.emit({ type: 'usage', usage: { inputTokens: 5, outputTokens: 1, costUsd: 0.25 } });
        return { status: 'succeeded', summary: 'done' };
      }),
      base,
      { timeoutMs: 1_000, onEvent: (e) => seen.push(e.type) },
    );
    assert.deepEqual(outcome, {
      ok: true,
      summary: 'done',
      usage: { inputTokens: 15, outputTokens: 3, costUsd: 0.75 },
      sessionId: undefined,
    });
    assert.deepEqual(seen, ['text', 'usage', 'usage']);
  });

  it('fails a lane that throws with its message', async () => {
    const outcome = await runLane(
      registered(async () => {
        throw new Error('socket hang up');
      }),
      base,
      { timeoutMs: 1_000 },
    );
    assert.deepEqual(outcome, { ok: false, code: 'lane-crash', reason: 'lane "probe" threw: socket hang up' });
  });

  it('fails a lane that emits a malformed event, naming the field, and aborts it', async () => {
    let abortedSeen = false;
    const outcome = await runLane(
      registered(async (input) => {
        input.emit({ type: 'tool-call', callId: 'c1', name: 42 } as never);
        abortedSeen = input.signal.aborted;
        return { status: 'succeeded' };
      }),
      base,
      { timeoutMs: 1_000 },
    );
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && outcome.code === 'lane-malformed-event');
    assert.match(!outcome.ok ? outcome.reason : '', /malformed event: name: .*string/);
    assert.ok(abortedSeen, 'the lane is told to stop');
  });

  it('fails a lane that returns a malformed result', async () => {
    const outcome = await runLane(
      registered(async () => ({ status: 'maybe' }) as never),
      base,
      { timeoutMs: 1_000 },
    );
    assert.ok(
      !outcome.ok &&
        outcome.code === 'lane-malformed-event' &&
        /returned a malformed result: status/.test(outcome.reason),
    );
  });

  it('aborts a lane that hangs at its timeout, even if it ignores the abort signal', async () => {
    const started = Date.now();
    const outcome = await runLane(
      registered(() => new Promise(() => undefined)),
      base,
      { timeoutMs: 150, abortGraceMs: 100 },
    );
    assert.ok(!outcome.ok && outcome.code === 'lane-timeout');
    assert.match(!outcome.ok ? outcome.reason : '', /did not finish within 150 ms and was aborted/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('reports cancellation when the cancel signal fires', async () => {
    const cancel = new AbortController();
    let running!: () => void;
    const started = new Promise<void>((resolve) => {
      running = resolve;
    });
    const outcome = runLane(
      registered(
        (input) =>
          new Promise((resolve) => {
            input.signal.addEventListener('abort', () => resolve({ status: 'failed', failureReason: 'killed' }));
            running();
          }),
      ),
      base,
      { timeoutMs: 5_000, cancelSignal: cancel.signal },
    );
    // Canceled while the lane runs.
    await started;
    cancel.abort();
    const ended = await outcome;
    assert.ok(!ended.ok && ended.code === 'canceled');
  });

  it('a failing event observer does not fail the lane', async () => {
    const outcome = await runLane(
      registered(async (input) => {
        input.emit({ type: 'text', text: 'x' });
        return { status: 'succeeded' };
      }),
      base,
      {
        timeoutMs: 1_000,
        onEvent: () => {
          throw new Error('observer bug');
        },
      },
    );
    assert.equal(outcome.ok, true);
  });
});

import assert from 'node:assert/strict';
import {
  RetryGaveUpError,
  RetryPolicy,
  backoffDelayMs,
  decideRetry,
  withRetry,
} from '../../../src/core/retry/retryPolicy';

const policy = (input: Parameters<typeof RetryPolicy.parse>[0] = {}) => RetryPolicy.parse(input);

describe('retry policy', () => {
  describe('backoff (Temporal-style)', () => {
    const p = policy({ initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 10_000, jitter: 0 });
    const table: [retry: number, delay: number][] = [
      [1, 1_000],
      [2, 2_000],
      [3, 4_000],
      [4, 8_000],
      [5, 10_000],
      [9, 10_000],
    ];
    for (const [retry, delay] of table)
      it(`retry ${retry} waits ${delay} ms`, () => assert.equal(backoffDelayMs(p, retry), delay));

    it('defaults the maximum interval to 100 × the initial one', () => {
      assert.equal(backoffDelayMs(policy({ initialIntervalMs: 100, jitter: 0 }), 20), 10_000);
    });

    it('spreads delays by ±jitter and never beyond the maximum', () => {
      const j = policy({ initialIntervalMs: 1_000, jitter: 0.2, maximumIntervalMs: 1_100 });
      assert.equal(
        backoffDelayMs(j, 1, () => 0),
        800,
      );
      assert.equal(
        backoffDelayMs(j, 1, () => 0.5),
        1_000,
      );
      assert.equal(
        backoffDelayMs(j, 1, () => 0.999),
        1_100,
      ); // 1 199 capped
    });
  });

  describe('decideRetry', () => {
    const p = policy({
      initialIntervalMs: 1_000,
      jitter: 0,
      maximumAttempts: 3,
      laneMaximumAttempts: { 'cheap-model': 5 },
    });

    it('retries a transient error with backoff and says why', () => {
      const d = decideRetry(p, { attempt: 1, kind: 'error', error: new Error('read ECONNRESET') });
      assert.deepEqual([d.retry, d.delayMs, d.class, d.rule], [true, 1_000, 'transient', 'connection-failed']);
      assert.match(d.reason, /retrying in 1000 ms \(backoff\): transient \(connection-failed\), attempt 2 of 3/);
    });

    it('honours Retry-After when it is longer than the backoff', () => {
      const err = Object.assign(new Error('Too Many Requests'), { status: 429, headers: { 'retry-after': '30' } });
      const d = decideRetry(p, { attempt: 1, kind: 'error', error: err });
      assert.equal(d.delayMs, 30_000);
      assert.match(d.reason, /as the server asked \(Retry-After\)/);
      assert.equal(
        decideRetry(p, { attempt: 1, kind: 'error', error: 'Rate limit reached. Please try again in 644ms.' }).delayMs,
        1_000,
      );
    });

    it('escalates instead of sleeping when Retry-After is beyond the policy', () => {
      const err = { status: 429, headers: { 'retry-after': String(3 * 3600) } };
      const d = decideRetry(p, { attempt: 1, kind: 'error', error: err });
      assert.equal(d.retry, false);
      assert.match(d.reason, /asked to wait 10800 s, more than the policy's 900 s/);
    });

    it('waits and retries ci-pending', () => {
      assert.equal(
        decideRetry(p, { attempt: 2, kind: 'error', error: '2 of 3 required status checks are expected.' }).retry,
        true,
      );
    });

    it('never retries non-retryable classes', () => {
      const d = decideRetry(p, { attempt: 1, kind: 'error', error: 'HttpError: Bad credentials' });
      assert.deepEqual([d.retry, d.class, d.rule], [false, 'permanent', 'auth-invalid']);
      const strict = policy({ nonRetryableClasses: ['permanent', 'ci-pending'] });
      assert.equal(
        decideRetry(strict, { attempt: 1, kind: 'error', error: 'Required status check "x" is expected.' }).retry,
        false,
      );
    });

    it('counts every attempt against the (per-lane) maximum', () => {
      assert.equal(decideRetry(p, { attempt: 3, kind: 'error', error: 'ETIMEDOUT' }).retry, false);
      assert.match(
        decideRetry(p, { attempt: 3, kind: 'error', error: 'ETIMEDOUT' }).reason,
        /exceeded max attempts \(3\)/,
      );
      assert.equal(decideRetry(p, { attempt: 3, lane: 'cheap-model', kind: 'error', error: 'ETIMEDOUT' }).retry, true);
      assert.equal(decideRetry(p, { attempt: 5, lane: 'cheap-model', kind: 'error', error: 'ETIMEDOUT' }).retry, false);
      assert.equal(
        decideRetry(policy({ maximumAttempts: 0 }), { attempt: 99, kind: 'error', error: 'ETIMEDOUT' }).retry,
        true,
      );
    });

    for (const kind of ['product-defect', 'policy-violation', 'spec-gap'] as const) {
      it(`never retries a ${kind} with the same input, but allows a changed one`, () => {
        const same = decideRetry(p, { attempt: 1, kind, error: 'read ECONNRESET' });
        assert.equal(same.retry, false);
        assert.match(same.reason, /never retried with the same input/);
        const changed = decideRetry(p, { attempt: 1, kind, inputChanged: true });
        assert.deepEqual([changed.retry, changed.delayMs], [true, 0]);
        assert.equal(decideRetry(p, { attempt: 3, kind, inputChanged: true }).retry, false);
      });
    }
  });

  describe('withRetry', () => {
    it('retries until success, sleeping as decided', async () => {
      const sleeps: number[] = [];
      let calls = 0;
      const value = await withRetry(
        async () => {
          if (++calls < 3) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
          return 'ok';
        },
        { policy: policy({ initialIntervalMs: 100, jitter: 0 }), sleep: async (ms) => void sleeps.push(ms) },
      );
      assert.equal(value, 'ok');
      assert.deepEqual(sleeps, [100, 200]);
    });

    it('stops on a permanent error with the decision and the last error', async () => {
      let calls = 0;
      await assert.rejects(
        withRetry(
          async () => {
            calls++;
            throw new Error('Resource not accessible by integration');
          },
          { policy: policy(), sleep: async () => undefined },
        ),
        (e: unknown) =>
          e instanceof RetryGaveUpError &&
          e.attempts === 1 &&
          e.decision.rule === 'permission-denied' &&
          /last error: Resource not accessible/.test(e.message),
      );
      assert.equal(calls, 1);
    });
  });
});

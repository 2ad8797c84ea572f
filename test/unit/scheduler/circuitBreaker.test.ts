import assert from 'node:assert/strict';
import { breakerAfterFailure, breakerAfterSuccess, breakerAllows } from '../../../src/core/scheduler/circuitBreaker';
import { BreakerSettings } from '../../../src/core/store/orchestratorSettings';

const settings = BreakerSettings.parse({ failures: 3, windowMs: 60_000, cooldownMs: 10_000, closeAfter: 3 });

describe('circuit breaker: open, probe, gradual close', () => {
  it('opens after N failures with the same code in a row within the window', () => {
    let b = breakerAfterFailure(undefined, 'lane-timeout', 0, settings);
    b = breakerAfterFailure(b, 'lane-timeout', 1_000, settings);
    assert.equal(b.state, 'closed');
    b = breakerAfterFailure(b, 'lane-crash', 2_000, settings);
    assert.equal(b.state, 'closed', 'a different code starts a new streak');
    b = breakerAfterFailure(b, 'lane-crash', 3_000, settings);
    b = breakerAfterFailure(b, 'lane-crash', 4_000, settings);
    assert.equal(b.state, 'open');
    assert.equal(b.code, 'lane-crash');
    assert.equal(b.opened, 1);
  });

  it('failures spread beyond the window, or broken by a success, do not open it', () => {
    let b = breakerAfterFailure(undefined, 'lane-exit', 0, settings);
    b = breakerAfterFailure(b, 'lane-exit', 30_000, settings);
    b = breakerAfterFailure(b, 'lane-exit', 70_000, settings);
    assert.equal(b.state, 'closed', 'the first failure left the window');
    b = breakerAfterSuccess(b, 71_000, settings)!;
    b = breakerAfterFailure(b, 'lane-exit', 72_000, settings);
    b = breakerAfterFailure(b, 'lane-exit', 73_000, settings);
    assert.equal(b.state, 'closed');
  });

  it('open: no new start until the cooldown; then one probe (half-open)', () => {
    let b = breakerAfterFailure(undefined, 'x', 0, settings);
    b = breakerAfterFailure(b, 'x', 1, settings);
    b = breakerAfterFailure(b, 'x', 2, settings);
    const during = breakerAllows(b, 0, 5_000, settings);
    assert.equal(during.allow, false);
    assert.match((during as { reason: string }).reason, /breaker open since .* \(x\); probe after/);
    assert.equal(breakerAllows(b, 1, 10_002, settings).allow, false, 'the probe waits for runs still in flight');
    const probe = breakerAllows(b, 0, 10_002, settings);
    assert.ok(probe.allow && probe.probe && probe.next?.state === 'half-open');
    b = probe.allow ? probe.next! : b;
    assert.equal(breakerAllows(b, 1, 10_003, settings).allow, false, 'one probe at a time');
  });

  it('half-open: successes widen the allowance 1, 2, 4 and close it after closeAfter; a failed probe opens it again', () => {
    const b = { state: 'half-open' as const, since: new Date(0).toISOString(), recent: [], successes: 0, opened: 1 };
    assert.equal(breakerAllows(b, 1, 0, settings).allow, false);
    let next = breakerAfterSuccess(b, 1, settings)!;
    assert.equal(next.state, 'half-open');
    assert.equal(breakerAllows(next, 1, 2, settings).allow, true, 'two at once after one success');
    assert.equal(breakerAllows(next, 2, 2, settings).allow, false);
    next = breakerAfterSuccess(next, 3, settings)!;
    assert.equal(breakerAllows(next, 3, 4, settings).allow, true, 'four at once after two');
    next = breakerAfterSuccess(next, 5, settings)!;
    assert.equal(next.state, 'closed');
    const reopened = breakerAfterFailure(b, 'x', 9, settings);
    assert.equal(reopened.state, 'open');
    assert.equal(reopened.opened, 2);
  });
});

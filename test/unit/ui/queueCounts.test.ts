import assert from 'node:assert/strict';
import { describeQueueCounts, queueCounts } from '../../../src/ui/project/queueCounts';

/** The status bar's counts: a pull request waiting for CI has no run going, so it is not "running". */
describe("the status bar's queue counts", () => {
  const of = (...states: string[]) => queueCounts({ tasks: states.map((state) => ({ state })) });

  it('counts AWAITING_CI apart from the running stages', () => {
    const counts = of('RUNNING', 'VERIFYING', 'INTEGRATING', 'AWAITING_CI', 'AWAITING_CI', 'READY', 'DONE', 'FAILED');
    assert.deepEqual(counts, { running: 3, awaitingCi: 2, queued: 1 });
    assert.equal(describeQueueCounts(counts), '3 running, 1 queued, 2 waiting for CI');
  });

  it('says nothing of CI when no pull request waits', () => {
    assert.equal(describeQueueCounts(of('RUNNING', 'READY', 'READY')), '1 running, 2 queued');
    assert.equal(describeQueueCounts(of()), '0 running, 0 queued');
  });
});

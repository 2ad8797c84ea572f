import assert from 'node:assert/strict';
import { Octokit } from '@octokit/rest';
import { ciGateVerdict, waitForRequiredChecks } from '../../../src/core/guards/ciGate';
import { mergePullRequest } from '../../../src/core/github/mergePullRequest';
import { RetryPolicy, decideRetry } from '../../../src/core/retry/retryPolicy';
import { checkRun, startFakeGitHub, type FakeGitHub, type Route } from '../../fixtures/fakeGitHub';

const MIN = 60_000;

/** The gate's clock: its time moves only when the gate sleeps, by what it sleeps, so no real time passes. */
function gateClock() {
  const start = Date.UTC(2026, 0, 1);
  let elapsed = 0;
  return {
    now: () => start + elapsed,
    elapsed: () => elapsed,
    sleep: async (ms: number) => {
      elapsed += ms;
    },
  };
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const HEAD = 'f'.repeat(40);

const pull: Route = () => ({
  status: 200,
  body: { number: 7, state: 'open', head: { sha: HEAD, ref: 'feature/login' }, base: { ref: 'main' } },
});
const protection =
  (contexts: string[]): Route =>
  () => ({
    status: 200,
    body: {
      url: 'https://api.github.com/repos/o/r/branches/main/protection/required_status_checks',
      strict: true,
      contexts,
      contexts_url: 'https://api.github.com/repos/o/r/branches/main/protection/required_status_checks/contexts',
      checks: contexts.map((context) => ({ context, app_id: 15368 })),
    },
  });
const noStatuses: Route = () => ({ status: 200, body: { state: 'pending', sha: HEAD, total_count: 0, statuses: [] } });
const runs =
  (list: () => unknown[]): Route =>
  () => ({ status: 200, body: { total_count: list().length, check_runs: list() } });

describe('CI gate (local GitHub double over HTTP)', function () {
  this.timeout(20_000);
  let gh: FakeGitHub | undefined;
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
  });
  const octokit = () => new Octokit({ baseUrl: gh!.url, auth: 'test-token', log: quiet });
  const routes = (r: Record<string, Route>) => ({
    'GET /repos/o/r/pulls/7': pull,
    [`GET /repos/o/r/commits/${HEAD}/status`]: noStatuses,
    ...r,
  });

  it('waits for a required check that appears 3 minutes after the PR opens, not for the checks visible at open', async () => {
    const clock = gateClock();
    let pollsBeforeBuild = 0;
    gh = await startFakeGitHub(
      routes({
        'GET /repos/o/r/branches/main/protection/required_status_checks': protection(['lint', 'build']),
        [`GET /repos/o/r/commits/${HEAD}/check-runs`]: runs(() => {
          const t = clock.elapsed();
          if (t < 3 * MIN) pollsBeforeBuild++;
          const list: unknown[] = [checkRun(1, 'lint', 'completed', 'success')];
          if (t >= 4 * MIN) list.push(checkRun(2, 'build', 'completed', 'success'));
          else if (t >= 3 * MIN) list.push(checkRun(2, 'build', 'in_progress'));
          return list;
        }),
      }),
    );
    const result = await waitForRequiredChecks({
      octokit: octokit(),
      owner: 'o',
      repo: 'r',
      pullNumber: 7,
      pollIntervalMs: 30_000,
      deadlineMs: 10 * MIN,
      now: () => clock.now(),
      sleep: (ms) => clock.sleep(ms),
    });
    assert.equal(result.verdict, 'pass');
    assert.equal(result.next, 'merge');
    assert.equal(result.source, 'branch-protection');
    assert.deepEqual(result.required, ['lint', 'build']);
    assert.ok(result.waitedMs >= 4 * MIN, `passed after ${result.waitedMs / MIN} minutes, before "build" finished`);
    // At open only "lint" was visible (and green): a snapshot of those checks would have passed right there.
    assert.ok(pollsBeforeBuild >= 1, 'the gate looked before "build" registered');
    assert.deepEqual(
      result.checks.map((c) => `${c.name}:${c.state}`),
      ['lint:success', 'build:success'],
    );
  });

  for (const status of [403, 404]) {
    it(`falls back to the observed checks with a recorded warning when branch protection answers ${status}`, async () => {
      const clock = gateClock();
      gh = await startFakeGitHub(
        routes({
          'GET /repos/o/r/branches/main/protection/required_status_checks': () => ({
            status,
            body: {
              message: status === 404 ? 'Branch not protected' : 'Resource not accessible by integration',
              documentation_url: 'https://docs.github.com/rest',
            },
          }),
          [`GET /repos/o/r/commits/${HEAD}/check-runs`]: runs(() => [checkRun(1, 'lint', 'completed', 'success')]),
        }),
      );
      const result = await waitForRequiredChecks({
        octokit: octokit(),
        owner: 'o',
        repo: 'r',
        pullNumber: 7,
        now: clock.now,
        sleep: clock.sleep,
      });
      assert.equal(result.verdict, 'pass');
      assert.equal(result.source, 'observed');
      assert.match(
        result.warnings[0] ?? '',
        new RegExp(`branch protection of main could not be read \\(${status}: .*\\); waiting for the checks observed`),
      );
      assert.deepEqual(
        result.checks.map((c) => c.name),
        ['lint'],
      );
      assert.equal(ciGateVerdict(result).verdict, 'warn');
    });
  }

  it('in strict mode waits for a required check that never appears until the deadline, then says which', async () => {
    const clock = gateClock();
    gh = await startFakeGitHub(
      routes({
        'GET /repos/o/r/branches/main/protection/required_status_checks': protection(['lint', 'build']),
        [`GET /repos/o/r/commits/${HEAD}/check-runs`]: runs(() => [checkRun(1, 'lint', 'completed', 'success')]),
      }),
    );
    const result = await waitForRequiredChecks({
      octokit: octokit(),
      owner: 'o',
      repo: 'r',
      pullNumber: 7,
      deadlineMs: 5 * MIN,
      now: clock.now,
      sleep: clock.sleep,
    });
    assert.equal(result.verdict, 'timeout');
    assert.equal(result.next, 'wait');
    assert.ok(result.waitedMs >= 5 * MIN);
    assert.match(result.reason ?? '', /"build" not reported/);

    const lax = await waitForRequiredChecks({
      octokit: octokit(),
      owner: 'o',
      repo: 'r',
      pullNumber: 7,
      strict: false,
      now: clock.now,
      sleep: clock.sleep,
    });
    assert.equal(lax.verdict, 'pass');
    assert.match(lax.warnings.join('\n'), /required check "build" never reported/);
  });

  it("sends the task back for a fix attempt with the failing check's output", async () => {
    const clock = gateClock();
    gh = await startFakeGitHub(
      routes({
        'GET /repos/o/r/branches/main/protection/required_status_checks': protection(['build']),
        [`GET /repos/o/r/commits/${HEAD}/check-runs`]: runs(() => [
          checkRun(3, 'build', 'completed', 'failure', {
            title: '2 tests failed',
            summary: 'tests/test_user.py::test_create FAILED',
          }),
        ]),
      }),
    );
    const result = await waitForRequiredChecks({
      octokit: octokit(),
      owner: 'o',
      repo: 'r',
      pullNumber: 7,
      now: clock.now,
      sleep: clock.sleep,
    });
    assert.equal(result.verdict, 'fail');
    assert.equal(result.next, 'fix-attempt');
    assert.equal(
      result.reason,
      'required check "build" failure: 2 tests failed\ntests/test_user.py::test_create FAILED (details: https://ci.example/runs/3)',
    );
    assert.deepEqual(ciGateVerdict(result), {
      verdict: 'block',
      rule: 'required-check-failed',
      evidence: [{ message: result.reason }],
    });
    // The retry policy gives the fix attempt, because its input now carries the check's output…
    const policy = RetryPolicy.parse({});
    assert.equal(decideRetry(policy, { attempt: 1, kind: 'product-defect', inputChanged: true }).retry, true);
    // …and never retries the same input.
    assert.equal(decideRetry(policy, { attempt: 1, kind: 'product-defect', inputChanged: false }).retry, false);
  });

  it('retries a poll that failed transiently (a 502 from GitHub) at the next poll', async () => {
    const clock = gateClock();
    let calls = 0;
    gh = await startFakeGitHub(
      routes({
        'GET /repos/o/r/branches/main/protection/required_status_checks': protection(['lint']),
        [`GET /repos/o/r/commits/${HEAD}/check-runs`]: () =>
          ++calls === 1
            ? { status: 502, body: { message: 'Server Error' } }
            : { status: 200, body: { total_count: 1, check_runs: [checkRun(1, 'lint', 'completed', 'success')] } },
      }),
    );
    const result = await waitForRequiredChecks({
      octokit: octokit(),
      owner: 'o',
      repo: 'r',
      pullNumber: 7,
      now: clock.now,
      sleep: clock.sleep,
    });
    assert.equal(result.verdict, 'pass');
    assert.equal(result.polls, 2);
    assert.match(result.warnings[0] ?? '', /polling checks failed \(transient, server-error\)/);
  });

  describe('merge', () => {
    const sleeps: number[] = [];
    const sleep = async (ms: number) => void sleeps.push(ms);
    beforeEach(() => (sleeps.length = 0));

    it('retries GitHub\'s singular and plural "expected" refusals with backoff, then merges', async () => {
      const answers = [
        {
          status: 405,
          body: {
            message: 'Required status check "build" is expected.',
            documentation_url: 'https://docs.github.com/articles/about-protected-branches',
          },
        },
        {
          status: 405,
          body: {
            message: '2 of 2 required status checks are expected.',
            documentation_url: 'https://docs.github.com/articles/about-protected-branches',
          },
        },
        { status: 200, body: { sha: 'a'.repeat(40), merged: true, message: 'Pull Request successfully merged' } },
      ];
      gh = await startFakeGitHub({ 'PUT /repos/o/r/pulls/7/merge': () => answers.shift()! });
      const outcome = await mergePullRequest({
        octokit: octokit(),
        owner: 'o',
        repo: 'r',
        pullNumber: 7,
        sha: HEAD,
        sleep,
        random: () => 0.5,
      });
      assert.deepEqual(outcome, { merged: true, sha: 'a'.repeat(40), attempts: 3 });
      assert.deepEqual(sleeps, [5_000, 10_000]);
      assert.equal(gh.requests.filter((r) => r.startsWith('PUT')).length, 3);
    });

    it('stops at once when a required check is failing', async () => {
      gh = await startFakeGitHub({
        'PUT /repos/o/r/pulls/7/merge': () => ({
          status: 405,
          body: { message: 'Required status check "build" is failing.' },
        }),
      });
      const outcome = await mergePullRequest({ octokit: octokit(), owner: 'o', repo: 'r', pullNumber: 7, sleep });
      assert.equal(outcome.merged, false);
      assert.equal(outcome.attempts, 1);
      assert.deepEqual(outcome.merged ? [] : [outcome.class, outcome.rule], ['permanent', 'required-check-failing']);
      assert.match(outcome.merged ? '' : outcome.reason, /GitHub said: Required status check "build" is failing/);
      assert.deepEqual(sleeps, []);
    });

    it("gives up after the policy's attempts when checks never arrive", async () => {
      gh = await startFakeGitHub({
        'PUT /repos/o/r/pulls/7/merge': () => ({
          status: 405,
          body: { message: '1 of 1 required status check is expected.' },
        }),
      });
      const outcome = await mergePullRequest({
        octokit: octokit(),
        owner: 'o',
        repo: 'r',
        pullNumber: 7,
        sleep,
        policy: { maximumAttempts: 4 },
      });
      assert.equal(outcome.merged, false);
      assert.equal(outcome.attempts, 4);
      assert.match(outcome.merged ? '' : outcome.reason, /exceeded max attempts \(4\): last error was ci-pending/);
    });
  });
});

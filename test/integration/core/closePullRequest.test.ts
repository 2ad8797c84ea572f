import assert from 'node:assert/strict';
import { checkRun } from '../../fixtures/fakeGitHub';
import { pullRequestProject } from '../../helpers/pullRequestProject';
import { runCli } from '../../helpers/runCli';

type Setup = Awaited<ReturnType<typeof pullRequestProject>>;

// A FAILED task's pull request stays open on GitHub (nothing else closes it): Close Pull Request closes it there
// through the GitHub double (PATCH /repos/{o}/{r}/pulls/{n} {"state": "closed"}, GitHub's REST "Update a pull
// request") and records it on the run; a PR already merged by a person is recorded as merged, not closed.
describe('closing a failed task’s pull request (GitHub double, real bare repository)', function () {
  this.timeout(90_000);
  let setup: Setup | undefined;
  afterEach(async () => {
    await setup?.cleanup();
    setup = undefined;
  });

  const failingCheck = async (): Promise<Setup> => {
    const s = await pullRequestProject(
      'echo v1 > work.txt',
      { protection: { contexts: ['build'] }, checks: () => [checkRun(1, 'build', 'completed', 'failure')] },
      {
        settings: (settings) => {
          settings.retryCaps.command = 1;
        },
      },
    );
    await s.project.tasks.add({ title: 'never green' });
    await s.project.runQueue();
    const state = await s.project.state();
    assert.equal(state.tasks[0]!.state, 'FAILED', 'the check fails every attempt');
    assert.equal(s.gh.pulls[0]!.state, 'open', 'the failed task leaves its pull request open');
    return s;
  };

  it('closes the open PR on GitHub and records it; a second close is refused with the reason', async () => {
    setup = await failingCheck();
    const { project, gh } = setup;
    const closed = await project.branches.closePullRequest('t1');
    assert.deepEqual({ number: closed.number, outcome: closed.outcome }, { number: 1, outcome: 'closed' });
    assert.equal(gh.pulls[0]!.state, 'closed');
    assert.equal(gh.pulls[0]!.merged, false);
    const state = await project.state();
    assert.equal(state.runs.find((r) => r.pullRequest)!.pullRequest!.state, 'closed');
    await assert.rejects(project.branches.closePullRequest('t1'), /pull request #1 is already closed/);
    await assert.rejects(project.branches.closePullRequest('t9'), /unknown task "t9"/);
  });

  it('switchyard close-pr <task> does the same from a terminal, with the token of the API host from the environment', async () => {
    setup = await failingCheck();
    const { repo, gh, tokenEnv } = setup;
    const env = { ...process.env, GITHUB_TOKEN: '', GH_TOKEN: '', ...tokenEnv };
    const closed = await runCli(['close-pr', 't1'], { cwd: repo.dir, env });
    assert.equal(closed.code, 0, closed.err);
    assert.match(closed.out, /^t1: pull request #1 closed \(https:\/\/github\.example\/o\/r\/pull\/1\)$/);
    assert.equal(gh.pulls[0]!.state, 'closed');
    const again = await runCli(['close-pr', 't1'], { cwd: repo.dir, env });
    assert.notEqual(again.code, 0);
    assert.match(again.err, /pull request #1 is already closed/);
  });

  it('a PR a person merged meanwhile is recorded as merged, not closed', async () => {
    setup = await failingCheck();
    const { project, gh } = setup;
    const commit = gh.mergeByHand(1);
    const result = await project.branches.closePullRequest('t1');
    assert.equal(result.outcome, 'merged');
    assert.equal(gh.pulls[0]!.state, 'closed');
    assert.equal(gh.pulls[0]!.merged, true, 'still merged: the PATCH was not sent');
    const pr = (await project.state()).runs.find((r) => r.pullRequest)!.pullRequest!;
    assert.deepEqual({ state: pr.state, mergeCommit: pr.mergeCommit }, { state: 'merged', mergeCommit: commit });
  });
});

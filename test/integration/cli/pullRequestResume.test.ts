import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { checkRun } from '../../fixtures/fakeGitHub';
import { buildCliBundle } from '../../helpers/cliBundle';
import { pullRequestProject } from '../../helpers/pullRequestProject';
import { untilValue } from '../../helpers/until';

describe('switchyard run after a SIGKILL while a pull request waits for CI', function () {
  this.timeout(120_000);
  let cli: string;
  before(async () => {
    cli = await buildCliBundle();
  });

  it('finds the open pull request and carries on: one PR, merged, the task DONE', async () => {
    let released = false;
    const setup = await pullRequestProject('echo resumed > resumed.txt', {
      protection: { contexts: ['build'] },
      checks: () => [released ? checkRun(2, 'build', 'completed', 'success') : checkRun(1, 'build', 'in_progress')],
    });
    try {
      const { repo, gh, bareGit } = setup;
      const sy = (...args: string[]) =>
        execa('node', [cli, ...(args.length ? args : ['run']), '--repo', repo.dir], {
          reject: false,
          env: setup.tokenEnv,
          extendEnv: true,
        });
      await setup.project.tasks.add({ title: 'survive a kill' });
      const readState = async () => JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
      const first = sy();
      await untilValue(
        'the task waits in AWAITING_CI with its check pending',
        async () => {
          const s = await readState();
          return s.tasks[0]?.state === 'AWAITING_CI' && s.runs[0]?.pullRequest?.checks?.[0]?.state === 'pending'
            ? true
            : undefined;
        },
        60_000,
      );
      first.kill('SIGKILL');
      const killed = await first;
      assert.equal(killed.signal, 'SIGKILL');
      assert.equal(gh.pulls.length, 1);
      // While it waits, `status` shows the PR and each required check's state.
      const waiting = await sy('status');
      assert.match(waiting.stdout, /t1 +AWAITING_CI/);
      assert.match(
        waiting.stdout,
        /pull request #1 open: https:\/\/github\.example\/o\/r\/pull\/1 \(switchyard\/pr\/t1 → main\)\n +required checks: build … in_progress/,
      );
      assert.match(waiting.stdout, /AWAITING_CI 1\/4/);
      released = true;

      const second = await sy();
      assert.equal(second.exitCode, 0, `${second.stdout}\n${second.stderr}`);
      const state = await readState();
      assert.equal(state.tasks[0].state, 'DONE', state.tasks[0].failureReason);
      assert.equal(state.runs.length, 1, 'no new attempt: the same run carried on');
      assert.equal(state.runs[0].resumes, 1);
      assert.equal(state.runs[0].pullRequest.state, 'merged');
      assert.equal(gh.pulls.length, 1, 'no second pull request');
      assert.equal(gh.requests.filter((r) => r === 'POST /repos/o/r/pulls').length, 1);
      assert.equal(bareGit(['show', 'main:resumed.txt']), 'resumed');
      const main = bareGit(['rev-parse', 'main']);
      assert.equal(state.runs[0].pullRequest.mergeCommit, main);
      const json = JSON.parse((await sy('status', '--json')).stdout);
      assert.deepEqual(
        json.pullRequests.map((p: { task: string; number: number; state: string; checks: { state: string }[] }) => [
          p.task,
          p.number,
          p.state,
          p.checks.map((c) => c.state),
        ]),
        [['t1', 1, 'merged', ['success']]],
      );
      const report = (await sy('report')).stdout;
      assert.ok(
        report.includes(`  pull request #1 merged as ${main.slice(0, 12)}: https://github.example/o/r/pull/1`),
        report,
      );
      assert.match(report, /required checks: build ✓ success/);
      assert.match(report, /opened pull request #1 switchyard\/pr\/t1 → main/);
    } finally {
      await setup.cleanup();
    }
  });
});

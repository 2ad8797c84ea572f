import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { checkRun } from '../../fixtures/fakeGitHub';
import { buildCliBundle } from '../../helpers/cliBundle';
import { TOKEN, pullRequestProject } from '../../helpers/pullRequestProject';
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
      const sy = () =>
        execa('node', [cli, 'run', '--repo', repo.dir], {
          reject: false,
          env: { GITHUB_TOKEN: TOKEN },
          extendEnv: true,
        });
      await setup.project.addTask({ title: 'survive a kill' });
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
      assert.equal(state.runs[0].pullRequest.mergeCommit, bareGit(['rev-parse', 'main']));
    } finally {
      await setup.cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { checkRun } from '../../fixtures/fakeGitHub';
import { MINUTE, TOKEN, filesContaining, pullRequestProject } from '../../helpers/pullRequestProject';

type Setup = Awaited<ReturnType<typeof pullRequestProject>>;

const has = (bare: string, sha: string, file: string) =>
  spawnSync('git', ['cat-file', '-e', `${sha}:${file}`], { cwd: bare }).status === 0;

describe('pull-request integration against a GitHub double and a real bare repository', function () {
  this.timeout(90_000);
  let setup: Setup | undefined;
  afterEach(async () => {
    await setup?.cleanup();
    setup = undefined;
  });

  it(
    'waits for a required check that registers 3 scaled minutes after the PR opens, retries singular and plural ' +
      '"expected" refusals, and merges: main moves, DONE records the PR; no token reaches the lane or a log',
    async () => {
      let registeredAt = 0;
      setup = await pullRequestProject('env > "$SWITCHYARD_WORKSPACE.env.txt"; echo change > c.txt', {
        protection: { contexts: ['build'] },
        checks: ({ sinceMs }) => {
          if (sinceMs < 3 * MINUTE) return [];
          registeredAt ||= Date.now();
          return [checkRun(1, 'build', 'completed', 'success')];
        },
        mergeGate: (_n, call) =>
          call === 1
            ? { status: 405, body: { message: 'Required status check "build" is expected.' } }
            : call === 2
              ? { status: 405, body: { message: '1 of 2 required status checks are expected.' } }
              : undefined,
      });
      const { project, gh, bareGit, bare, repo } = setup;
      const mainBefore = bareGit(['rev-parse', 'main']);
      await project.addTask({ title: 'add c', spec: 'Add c.txt.', acceptance: 'test -f c.txt' });
      let sawWaiting = false;
      const watch = (async () => {
        for (let i = 0; i < 400 && !sawWaiting; i++) {
          const s = await project.state();
          const run = s.runs[0];
          if (s.tasks[0]?.state === 'AWAITING_CI' && run?.pullRequest?.checks?.[0]?.state === 'missing')
            sawWaiting = !s.tasks.some((t) => t.state === 'INTEGRATING' || t.state === 'RUNNING');
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const openedAt = Date.now();
      await project.runQueue();
      await watch;
      const state = await project.state();
      const [task] = state.tasks;
      const [run] = state.runs;
      assert.equal(task!.state, 'DONE', task!.failureReason);
      assert.ok(sawWaiting, 'the task waited in AWAITING_CI (holding no RUNNING or INTEGRATING slot), check missing');
      assert.equal(gh.pulls.length, 1);
      assert.equal(gh.mergeCalls, 3, 'two "expected" refusals, then the merge');
      assert.ok(registeredAt - openedAt >= 3 * MINUTE);
      const mainAfter = bareGit(['rev-parse', 'main']);
      assert.notEqual(mainAfter, mainBefore);
      assert.equal(bareGit(['show', 'main:c.txt']), 'change');
      assert.equal(run!.pullRequest!.state, 'merged');
      assert.equal(run!.pullRequest!.mergeCommit, mainAfter);
      assert.deepEqual(
        run!.pullRequest!.checks!.map((c) => [c.name, c.state, c.conclusion]),
        [['build', 'success', 'success']],
      );
      assert.deepEqual(task!.integration!.pullRequest, { number: 1, url: 'https://github.example/o/r/pull/1' });
      assert.equal(task!.integration!.commit, mainAfter);
      const body = gh.pulls[0]!.body;
      for (const part of ['Add c.txt.', 'test -f c.txt', run!.id, '1 file changed', 'No review'])
        assert.ok(body.includes(part), `the PR body has ${part}: ${body}`);
      assert.ok(has(bare, bareGit(['rev-parse', 'switchyard/pr/t1']), 'c.txt'));
      // The token: GitHub got it, the lane and every file Switchyard wrote did not.
      assert.ok(gh.auth.some((a) => a === `token ${TOKEN}`));
      const laneEnv = `${run!.worktree}.env.txt`;
      assert.match(spawnSync('cat', [laneEnv], { encoding: 'utf8' }).stdout, /SWITCHYARD_RUN_ID=/);
      assert.deepEqual(filesContaining(join(repo.dir, '.switchyard'), TOKEN), [], 'no token under .switchyard/');
      assert.deepEqual(filesContaining(join(repo.dir, '.git'), TOKEN), [], 'no token in the git config or logs');
      assert.doesNotMatch(spawnSync('cat', [laneEnv], { encoding: 'utf8' }).stdout, new RegExp(TOKEN));
    },
  );
});

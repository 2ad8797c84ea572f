import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRun } from '../../fixtures/fakeGitHub';
import { freePort } from '../../helpers/freePort';
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

  it('waits for a required check that registers 3 scaled minutes after the PR opens, retries singular and plural "expected" refusals, and merges: main moves, DONE records the PR; no token reaches the lane or a log', async () => {
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
    await project.tasks.add({ title: 'add c', spec: 'Add c.txt.', acceptance: 'test -f c.txt' });
    let sawWaiting = false;
    let drained = false;
    // Samples the state while the queue drains (every 20 ms, until it saw the wait or the drain is over).
    const watch = (async () => {
      while (!sawWaiting && !drained) {
        const s = await project.state();
        const run = s.runs[0];
        if (s.tasks[0]?.state === 'AWAITING_CI' && run?.pullRequest?.checks?.[0]?.state === 'missing')
          sawWaiting = !s.tasks.some((t) => t.state === 'INTEGRATING' || t.state === 'RUNNING');
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const openedAt = Date.now();
    await project.runQueue();
    drained = true;
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
  });

  it("counts a ruleset's required check as much as branch protection's: the merge waits for it", async () => {
    let lintAt = 0;
    setup = await pullRequestProject('echo r > r.txt', {
      rulesetChecks: ['lint'],
      checks: ({ sinceMs }) => {
        const runs = [checkRun(1, 'build', 'completed', 'success')];
        if (sinceMs < 2 * MINUTE) return runs;
        lintAt ||= Date.now();
        return [...runs, checkRun(2, 'lint', 'completed', 'success')];
      },
    });
    const { project, gh, bareGit } = setup;
    let mergedAt = 0;
    const watch = setInterval(() => {
      if (!mergedAt && gh.pulls[0]?.merged) mergedAt = Date.now();
    }, 10);
    await project.tasks.add({ title: 'r' });
    await project.runQueue();
    clearInterval(watch);
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    assert.ok(lintAt > 0 && mergedAt >= lintAt, 'merged only after the ruleset check reported');
    const pr = state.runs[0]!.pullRequest!;
    assert.deepEqual(
      pr.checks!.map((c) => c.name),
      ['lint'],
      'the required check is the ruleset one (build is not required)',
    );
    assert.ok(
      pr.warnings!.some((w) => /branch protection of main could not be read \(404: Branch not protected\)/.test(w)),
    );
    assert.equal(bareGit(['show', 'main:r.txt']), 'r');
  });

  it("sends a failing check's name, conclusion and output to a fix attempt; its push updates the PR", async () => {
    setup = await pullRequestProject(
      'if [ -n "$SWITCHYARD_FEEDBACK" ]; then printf "%s" "$SWITCHYARD_FEEDBACK" > fixed.txt; else echo v1 > work.txt; fi',
      {
        protection: { contexts: ['build'] },
        checks: ({ sha, bare }) =>
          has(bare, sha, 'fixed.txt')
            ? [checkRun(2, 'build', 'completed', 'success')]
            : [
                checkRun(1, 'build', 'completed', 'failure', {
                  title: '2 tests failed',
                  summary: 'expected 3, got 4',
                  text: 'at test/x.test.ts:10',
                }),
              ],
      },
    );
    const { project, gh, bareGit } = setup;
    await project.tasks.add({ title: 'fix me' });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    const [first, second] = state.runs;
    assert.equal(first!.failureCode, 'ci-failed');
    assert.equal(first!.pullRequest!.checks![0]!.state, 'failure');
    for (const part of ['"build"', 'failure', '2 tests failed', 'expected 3, got 4', 'at test/x.test.ts:10'])
      assert.ok(second!.feedback!.includes(part), `the fix attempt's feedback has ${part}: ${second!.feedback}`);
    assert.equal(second!.resumeFrom?.commit, first!.headCommit, 'the fix attempt starts from the failed commit');
    assert.equal(gh.pulls.length, 1, 'the same pull request, updated by the second push');
    assert.equal(second!.pullRequest!.number, 1);
    assert.equal(bareGit(['show', 'main:work.txt']), 'v1');
    assert.match(bareGit(['show', 'main:fixed.txt']), /2 tests failed/);
    // The pull request held one commit, both attempts squashed, whatever the merge method does with it.
    const prBranch = `switchyard/pr/${state.tasks[0]!.id}`;
    assert.equal(bareGit(['rev-list', '--count', `${second!.baseCommit}..${prBranch}`]), '1');
    assert.equal(bareGit(['rev-parse', `${prBranch}^`]), second!.baseCommit);
    assert.equal(bareGit(['log', '-1', '--format=%B', prBranch]), `fix me\n\nSwitchyard task t1, run ${second!.id}`);
    assert.equal(second!.pullRequest!.headSha, bareGit(['rev-parse', prBranch]));
    // Branch retention (here at once): the local branches and the merged pull request's branch on the remote go.
    const pruned = await project.branches.prune();
    assert.ok(pruned.includes(`${prBranch} deleted on origin: its pull request was merged`), pruned.join('\n'));
    assert.equal(spawnSync('git', ['rev-parse', '--verify', '-q', prBranch], { cwd: setup.bare }).status, 1);
  });

  it("a conflict with the base leads to a new attempt on the base's new head", async () => {
    setup = await pullRequestProject('echo "lane $SWITCHYARD_ATTEMPT" > src/a.txt', {
      protection: { contexts: ['build'] },
      checks: () => [checkRun(1, 'build', 'completed', 'success')],
    });
    const { project, bareGit, bare } = setup;
    // Someone else's change to the same line lands on main first.
    const base = bareGit(['rev-parse', 'main']);
    const blob = spawnSync('git', ['hash-object', '-w', '--stdin'], {
      cwd: bare,
      input: 'person\n',
      encoding: 'utf8',
    }).stdout.trim();
    const tree = spawnSync('git', ['mktree'], {
      cwd: bare,
      encoding: 'utf8',
      input: `${bareGit(['ls-tree', 'main', 'README.md'])}\n040000 tree ${spawnSync('git', ['mktree'], {
        cwd: bare,
        encoding: 'utf8',
        input: `100644 blob ${blob}\ta.txt\n`,
      }).stdout.trim()}\tsrc\n`,
    }).stdout.trim();
    const theirs = spawnSync('git', ['commit-tree', tree, '-p', base, '-m', 'person'], {
      cwd: bare,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'P',
        GIT_AUTHOR_EMAIL: 'p@x',
        GIT_COMMITTER_NAME: 'P',
        GIT_COMMITTER_EMAIL: 'p@x',
      },
    }).stdout.trim();
    bareGit(['update-ref', 'refs/heads/main', theirs, base]);
    await project.tasks.add({ title: 'conflicting' });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    const [first, second] = state.runs;
    assert.equal(first!.failureCode, 'merge-conflict');
    assert.match(first!.failureReason!, /pull request #1 conflicts with main/);
    assert.equal(second!.baseCommit, theirs, "the new attempt starts on the base's new head");
    assert.equal(bareGit(['show', 'main:src/a.txt']), 'lane 2');
    assert.equal(bareGit(['rev-parse', 'main~1']), theirs);
  });

  it('a PR closed by hand cancels the task with that reason; main does not move', async () => {
    setup = await pullRequestProject('echo x > x.txt', { protection: { contexts: ['build'] }, checks: () => [] });
    const { project, gh, bareGit } = setup;
    const mainBefore = bareGit(['rev-parse', 'main']);
    await project.tasks.add({ title: 'closed' });
    const closer = setInterval(() => {
      if (gh.pulls[0]?.state === 'open') gh.closeByHand(1);
    }, 20);
    await project.runQueue();
    clearInterval(closer);
    const state = await project.state();
    const [task] = state.tasks;
    assert.equal(task!.state, 'CANCELED');
    assert.match(
      task!.failureReason!,
      /pull request #1 \(https:\/\/github\.example\/o\/r\/pull\/1\) was closed without merging/,
    );
    assert.equal(state.runs.length, 1);
    assert.equal(state.runs[0]!.state, 'CANCELED');
    assert.equal(state.runs[0]!.pullRequest!.state, 'closed');
    assert.equal(bareGit(['rev-parse', 'main']), mainBefore);
  });

  it('a PR merged by hand while it waits ends the task DONE with that merge commit', async () => {
    setup = await pullRequestProject('echo y > y.txt', { protection: { contexts: ['build'] }, checks: () => [] });
    const { project, gh, bareGit } = setup;
    await project.tasks.add({ title: 'merged by a person' });
    let mergedBy = '';
    const merger = setInterval(() => {
      if (!mergedBy && gh.pulls[0]?.state === 'open') mergedBy = gh.mergeByHand(1);
    }, 20);
    await project.runQueue();
    clearInterval(merger);
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    assert.equal(state.tasks[0]!.integration!.commit, mergedBy);
    assert.equal(state.runs[0]!.pullRequest!.mergeCommit, mergedBy);
    assert.equal(bareGit(['rev-parse', 'main']), mergedBy);
    assert.equal(gh.mergeCalls, 0, 'Switchyard did not merge it');
  });

  it('integration.draft opens a draft, which Switchyard never merges itself: a person does', async () => {
    setup = await pullRequestProject(
      'echo d > d.txt',
      { protection: { contexts: ['build'] }, checks: () => [checkRun(1, 'build', 'completed', 'success')] },
      { settings: (s) => (s.integration.draft = true) },
    );
    const { project, gh, bareGit, repo } = setup;
    await project.tasks.add({ title: 'draft' });
    const merger = setInterval(() => {
      const log = join(repo.dir, '.switchyard', 'runs', 't1.1', 'events.jsonl');
      const waiting = spawnSync('grep', ['-q', 'is a draft: checks passed', log]).status === 0;
      if (waiting && gh.pulls[0]?.state === 'open') gh.mergeByHand(1);
    }, 20);
    await project.runQueue();
    clearInterval(merger);
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    assert.equal(gh.pulls[0]!.draft, true);
    assert.equal(gh.mergeCalls, 0);
    assert.equal(bareGit(['show', 'main:d.txt']), 'd');
  });

  it('a queue stopped while the PR waits leaves it open; the next drain carries on with the same run', async () => {
    let released = false;
    setup = await pullRequestProject('echo w > w.txt', {
      protection: { contexts: ['build'] },
      checks: () => [released ? checkRun(2, 'build', 'completed', 'success') : checkRun(1, 'build', 'queued')],
    });
    const { project, gh, bareGit } = setup;
    await project.tasks.add({ title: 'stop and go' });
    const stop = new AbortController();
    const stopper = setInterval(() => {
      void project.state().then((s) => {
        if (s.runs[0]?.pullRequest?.checks?.[0]?.state === 'pending') stop.abort();
      });
    }, 20);
    await project.runQueue({ signal: stop.signal });
    clearInterval(stopper);
    let state = await project.state();
    assert.equal(state.tasks[0]!.state, 'AWAITING_CI');
    assert.equal(state.runs[0]!.state, 'RUNNING');
    assert.equal(state.runs[0]!.owner, undefined, 'left for the next drain');
    assert.equal(gh.pulls[0]!.state, 'open');
    released = true;
    await project.runQueue();
    state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    assert.equal(state.runs.length, 1);
    assert.equal(state.runs[0]!.resumes, 1);
    assert.equal(gh.pulls.length, 1);
    assert.equal(bareGit(['show', 'main:w.txt']), 'w');
  });

  it('a wrong token fails at once, naming the token source, before any push', async () => {
    setup = await pullRequestProject('echo x > x.txt', { tokens: new Set(['not-this-one']) });
    const { project, gh, bareGit } = setup;
    await project.tasks.add({ title: 'x' });
    const started = Date.now();
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.match(
      state.tasks[0]!.failureReason!,
      /^GitHub refused the GitHub token for 127\.0\.0\.1:\d+ \(environment.*\) for o\/r: 401 Bad credentials/,
    );
    assert.equal(state.runs.length, 1, 'not retried');
    assert.ok(Date.now() - started < 15_000);
    assert.equal(gh.pulls.length, 0);
    assert.equal(
      spawnSync('git', ['rev-parse', '--verify', '--quiet', 'switchyard/pr/t1'], { cwd: setup.bare }).status,
      1,
    );
    assert.ok(bareGit(['rev-parse', 'main']));
  });

  it('no token at all fails at once, saying how to set one', async () => {
    setup = await pullRequestProject('echo x > x.txt', {}, { env: { GH_ENTERPRISE_TOKEN: '' } });
    await setup.project.tasks.add({ title: 'x' });
    await setup.project.runQueue();
    const [task] = (await setup.project.state()).tasks;
    assert.equal(task!.state, 'FAILED');
    assert.match(
      task!.failureReason!,
      /integration\.mode is "pull-request" but no GitHub token is set: .*set GH_HOST=127\.0\.0\.1:\d+ and GH_ENTER/,
    );
    assert.equal(setup.gh.pulls.length, 0);
  });

  it('bad configuration is a permanent error naming the setting and what GitHub answered, before a push', async () => {
    setup = await pullRequestProject('echo x > x.txt', {}, { settings: (s) => (s.integration.base = 'nope') });
    await setup.project.tasks.add({ title: 'x' });
    await setup.project.runQueue();
    let [task] = (await setup.project.state()).tasks;
    assert.equal(task!.state, 'FAILED');
    assert.match(
      task!.failureReason!,
      /integration\.base "nope" does not exist in o\/r \(GitHub answered 404 Branch not found\)/,
    );
    assert.equal(setup.gh.pulls.length, 0);

    await setup.project.settings.update((s) => {
      s.integration.base = 'main';
      delete s.github.repository;
    });
    await setup.project.tasks.retry(task!.id);
    await setup.project.runQueue();
    [task] = (await setup.project.state()).tasks;
    assert.equal(task!.state, 'FAILED');
    assert.match(
      task!.failureReason!,
      /the URL of integration\.remote "origin" \(.*\) names no GitHub repository: set github\.repository/,
    );
    assert.equal(
      spawnSync('git', ['rev-parse', '--verify', '--quiet', 'switchyard/pr/t1'], { cwd: setup.bare }).status,
      1,
    );
  });

  it('a token without the needed scopes fails before any push, saying what GitHub listed', async () => {
    setup = await pullRequestProject('echo x > x.txt', { scopes: 'read:org, gist' });
    await setup.project.tasks.add({ title: 'x' });
    await setup.project.runQueue();
    const [task] = (await setup.project.state()).tasks;
    assert.equal(task!.state, 'FAILED');
    assert.match(
      task!.failureReason!,
      /^the GitHub token for 127\.0\.0\.1:\d+ \(.*\) lacks the scopes pull-request mode needs: GitHub lists "read:org, gist"; give it the repo scope/,
    );
    assert.equal(setup.gh.pulls.length, 0);
    assert.equal(
      spawnSync('git', ['rev-parse', '--verify', '--quiet', 'switchyard/pr/t1'], { cwd: setup.bare }).status,
      1,
    );
  });

  it('AWAITING_CI is its own stage: its WIP limit holds, and a full stage stops new runs (backpressure)', async () => {
    // a's check stays pending until run b has logged that it waits for the slot a's PR holds (however long b takes
    // on a loaded machine); the other PRs' checks pass at once.
    let repoDir = '';
    // Either b started before a took the slot and waits for it, or the full stage held b back (backpressure): which
    // one depends on how fast a reaches AWAITING_CI, and a's check is held until one of them has happened.
    const bWaits = () => {
      try {
        const log = readFileSync(join(repoDir, '.switchyard', 'runs', 't2.1', 'events.jsonl'), 'utf8');
        if (/waiting for a AWAITING_CI slot/.test(log)) return true;
      } catch {}
      try {
        const trace = readFileSync(join(repoDir, '.switchyard', 'trace.jsonl'), 'utf8');
        return /backpressure: AWAITING_CI is full \(1\/1\), so no new run starts/.test(trace);
      } catch {
        return false;
      }
    };
    const headOfA = (bare: string) =>
      spawnSync('git', ['rev-parse', '--verify', '--quiet', 'switchyard/pr/t1'], {
        cwd: bare,
        encoding: 'utf8',
      }).stdout.trim();
    setup = await pullRequestProject(
      'echo "$SWITCHYARD_TASK_TITLE" > "$SWITCHYARD_TASK_TITLE.txt"',
      {
        protection: { contexts: ['build'] },
        checks: ({ sha, bare }) =>
          sha === headOfA(bare) && !bWaits() ? [] : [checkRun(1, 'build', 'completed', 'success')],
      },
      {
        settings: (s) => {
          s.wip.AWAITING_CI = 1;
          s.wip.RUNNING = 1;
          // a's check is held until b waits, which on a loaded machine took longer than the scaled 40 minutes (10 s):
          // the deadline is not what this test is about.
          s.integration.ciTimeoutSeconds = 300;
        },
      },
    );
    const { project, gh, bareGit, repo } = setup;
    repoDir = repo.dir;
    await project.tasks.addMany([{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    let peak = 0;
    let stop = false;
    // Samples the state every 15 ms while the queue drains.
    const watch = (async () => {
      while (!stop) {
        const s = await project.state();
        peak = Math.max(peak, s.tasks.filter((t) => t.state === 'AWAITING_CI').length);
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    await project.runQueue();
    stop = true;
    await watch;
    const state = await project.state();
    assert.deepEqual(
      state.tasks.map((t) => t.state),
      ['DONE', 'DONE', 'DONE'],
      JSON.stringify(state.tasks.map((t) => t.failureReason)),
    );
    assert.equal(peak, 1, 'never more than wip.AWAITING_CI pull requests waiting at once');
    assert.equal(gh.pulls.filter((p) => p.merged).length, 3);
    for (const t of ['a', 'b', 'c']) assert.equal(bareGit(['show', `main:${t}.txt`]), t);
    const run = (id: string) => state.runs.find((r) => r.id === id)!;
    assert.ok(
      Date.parse(run('t3.1').startedAt) >= Date.parse(run('t1.1').endedAt!),
      'the third run started only once the waiting PR had merged (RUNNING was free long before)',
    );
    const trace = readFileSync(join(repo.dir, '.switchyard', 'trace.jsonl'), 'utf8');
    assert.match(trace, /backpressure: AWAITING_CI is full \(1\/1\), so no new run starts/);
  });

  it('an unreachable API is retried with backoff up to the CI deadline, then fails with the last error', async () => {
    const closedPort = await freePort();
    setup = await pullRequestProject(
      'echo x > x.txt',
      {},
      {
        // The token is stored for that host, so only reaching it fails.
        env: { GH_HOST: `127.0.0.1:${closedPort}` },
        settings: (s) => {
          s.github.apiUrl = `http://127.0.0.1:${closedPort}`;
          s.integration.ciTimeoutSeconds = 2.5;
        },
      },
    );
    await setup.project.tasks.add({ title: 'x' });
    const started = Date.now();
    await setup.project.runQueue();
    const state = await setup.project.state();
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.equal(state.runs[0]!.failureCode, 'ci-timeout');
    assert.match(
      state.tasks[0]!.failureReason!,
      /GitHub stayed unreachable until the CI deadline .*the last error: .*(fetch failed|ECONNREFUSED)/,
    );
    assert.ok(Date.now() - started >= 2_000, 'it kept trying until the deadline');
    const log = readFileSync(join(setup.repo.dir, '.switchyard', 'runs', 't1.1', 'events.jsonl'), 'utf8');
    assert.ok((log.match(/GitHub failed \(/g) ?? []).length >= 1, 'each failure was recorded with its retry');
  });
});

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRun } from '../../fixtures/fakeGitHub';
import { TOKEN, filesContaining, pullRequestProject } from '../../helpers/pullRequestProject';

type Setup = Awaited<ReturnType<typeof pullRequestProject>>;

// Installation tokens in GitHub's format, assembled at run time.
const FIRST = ['ghs', 'FirstInstallationToken00000000000000a'].join('_');
const SECOND = ['ghs', 'SecondInstallationToken0000000000000b'].join('_');

describe('GitHub tokens for the pull-request flow (App, secret command)', function () {
  this.timeout(60_000);
  let setup: Setup | undefined;
  afterEach(async () => {
    await setup?.cleanup();
    setup = undefined;
  });

  it('an installation token with 2 minutes left is refreshed before it is lent again; no log has a token', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    setup = await pullRequestProject(
      'env > "$SWITCHYARD_WORKSPACE.env.txt"; echo app > app.txt',
      {
        tokens: new Set(),
        protection: { contexts: ['build'] },
        checks: () => [checkRun(1, 'build', 'completed', 'success')],
        app: {
          installationId: 7,
          publicKeyPem: publicKey,
          appTokens: [
            { token: FIRST, expiresInMs: 2 * 60_000 },
            { token: SECOND, expiresInMs: 60 * 60_000 },
          ],
        },
      },
      {
        env: { GH_ENTERPRISE_TOKEN: '' },
        http: true,
        settings: (s) => {
          s.github.app = { appId: 42, installationId: 7, privateKeyFile: 'app-key.pem' };
        },
      },
    );
    const { project, gh, repo, bareGit, http } = setup;
    await writeFile(join(repo.dir, 'app-key.pem'), privateKey);
    await project.tasks.add({ title: 'app' });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    assert.equal(bareGit(['show', 'main:app.txt']), 'app');
    assert.deepEqual(gh.mintedTokens, [FIRST, SECOND], 'the 2-minute token was replaced, the 1-hour one kept');
    const used = gh.auth.filter((a) => a.startsWith('token '));
    assert.equal(used[0], `token ${FIRST}`);
    assert.ok(used.length > 3);
    assert.deepEqual(new Set(used.slice(1)), new Set([`token ${SECOND}`]), 'every later call borrowed the new token');
    // The push (and the fetches) went over HTTP with the fresh token, given to git for that command only.
    assert.ok(http!.tokens.length >= 2, 'the git server saw the push and the fetch');
    assert.deepEqual(new Set(http!.tokens), new Set([SECOND]), 'git borrowed the refreshed token');
    // The pull request branch holds the run squashed into one commit on the run's base, the one the PR names.
    const run = state.runs[0]!;
    assert.equal(bareGit(['rev-parse', 'switchyard/pr/t1']), run.pullRequest!.headSha);
    assert.equal(bareGit(['rev-parse', 'switchyard/pr/t1^']), run.baseCommit);
    const runTree = (await repo.git('rev-parse', `${run.headCommit}^{tree}`)).trim();
    assert.equal(bareGit(['rev-parse', 'switchyard/pr/t1^{tree}']), runTree, "the run's change, whole");
    assert.doesNotMatch(await repo.git('remote', 'get-url', 'origin'), /ghs_|@/, 'no token in the remote URL');
    assert.equal(state.runs[0]!.pullRequest!.repository, 'o/r', 'the repository was read from the remote URL');
    assert.ok(
      gh.auth.some((a) => /^bearer [\w-]+\.[\w-]+\.[\w-]+$/i.test(a)),
      'the app signed a JWT for each mint',
    );
    const laneEnv = readFileSync(`${state.runs[0]!.worktree}.env.txt`, 'utf8');
    for (const token of [FIRST, SECOND]) {
      assert.equal(laneEnv.includes(token), false, 'the lane never sees the token');
      assert.deepEqual(filesContaining(join(repo.dir, '.switchyard'), token), []);
      assert.deepEqual(filesContaining(join(repo.dir, '.git'), token), []);
    }
  });

  it('takes the token from a secret command (like `gh auth token`) when the environment has none', async () => {
    const tokenFile = join(tmpdir(), `switchyard-token-${process.pid}`);
    await writeFile(tokenFile, `${TOKEN}\n`);
    try {
      setup = await pullRequestProject(
        'echo s > s.txt',
        { protection: { contexts: ['build'] }, checks: () => [checkRun(1, 'build', 'completed', 'success')] },
        {
          env: { GH_ENTERPRISE_TOKEN: '' },
          http: true,
          settings: (s) => (s.secretCommands = { GH_ENTERPRISE_TOKEN: `cat ${tokenFile}` }),
        },
      );
      await setup.project.tasks.add({ title: 's' });
      await setup.project.runQueue();
      const state = await setup.project.state();
      assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
      assert.equal(setup.bareGit(['show', 'main:s.txt']), 's');
      assert.deepEqual(new Set(setup.http!.tokens), new Set([TOKEN]));
      assert.deepEqual(filesContaining(join(setup.repo.dir, '.switchyard'), TOKEN), []);
    } finally {
      await rm(tokenFile, { force: true });
    }
  });
});

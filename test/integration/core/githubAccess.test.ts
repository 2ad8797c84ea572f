import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envGitHubTokens } from '../../../src/core/credentials/githubTokenStore';
import { openGitHub } from '../../../src/core/engine/integration/githubAccess';
import type { RunContext } from '../../../src/core/engine/runContext';
import { ProjectSettings } from '../../../src/core/store/projectState';
import { startAttackerListener } from '../../fixtures/attackerListener';
import { startGitHubDouble } from '../../fixtures/gitHubDouble';
import { makeTempRepo } from '../../helpers/tempRepo';

const TOKEN = ['ghp', 'BoundToTheDoublesHostOnly0000000000000f6'].join('_');

describe('the GitHub client attaches the token per request, by the host it goes to', function () {
  this.timeout(30_000);

  it('a call on an absolute URL to another host (as a pagination link would be) carries no token', async () => {
    const repo = await makeTempRepo();
    const root = await mkdtemp(join(tmpdir(), 'switchyard-bare-'));
    const bare = join(root, 'r.git');
    execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', bare]);
    const gh = await startGitHubDouble({ bare, tokens: new Set([TOKEN]) });
    const attacker = await startAttackerListener();
    try {
      const host = new URL(gh.url).host;
      const ctx = {
        root: repo.dir,
        githubTokens: envGitHubTokens({ GH_HOST: host, GH_ENTERPRISE_TOKEN: TOKEN, GITHUB_TOKEN: 'dotcom' }),
      } as unknown as RunContext;
      const settings = ProjectSettings.parse({ github: { apiUrl: gh.url, repository: 'o/r' } });
      const borrowed: string[] = [];
      const access = await openGitHub(ctx, settings, (t) => borrowed.push(t));
      await access.octokit.request('GET /repos/{owner}/{repo}', { owner: 'o', repo: 'r' }).catch(() => undefined);
      assert.deepEqual(gh.auth, [`token ${TOKEN}`], 'the host the token belongs to gets it');
      await access.octokit.request(`GET ${attacker.url}/api/v3/repos/o/r`);
      assert.equal(attacker.log.length, 1, 'the call was made');
      assert.equal(attacker.holds(TOKEN), false, attacker.log.join('\n'));
      assert.equal(attacker.holds('dotcom'), false);
      assert.deepEqual(await access.gitEnv(), { GIT_TERMINAL_PROMPT: '0' }, 'a local remote gets no header');
    } finally {
      await attacker.close();
      await gh.close();
      await repo.cleanup();
      await rm(root, { recursive: true, force: true });
    }
  });
});

import assert from 'node:assert/strict';
import { gitCredentialHost, restCredentialHost } from '../../../src/core/credentials/githubHost';
import { envGitHubTokens } from '../../../src/core/credentials/githubTokenStore';

describe('the host a GitHub token belongs to', () => {
  it("REST: api.github.com is github.com's; an Enterprise Server's /api/v3 is its host's; a port is part of it", () => {
    assert.equal(restCredentialHost('https://api.github.com'), 'github.com');
    assert.equal(restCredentialHost('https://API.GitHub.com/'), 'github.com');
    assert.equal(restCredentialHost('https://ghe.example.com/api/v3'), 'ghe.example.com');
    assert.equal(restCredentialHost('https://ghe.example.com:8443/api/v3'), 'ghe.example.com:8443');
    assert.equal(restCredentialHost('http://127.0.0.1:4000/api/v3'), '127.0.0.1:4000');
  });

  it('plain http carries a token only to this machine', () => {
    assert.throws(() => restCredentialHost('http://ghe.example.com/api/v3'), /github\.apiUrl .* is not https/);
    assert.throws(() => gitCredentialHost('http://ghe.example.com/o/r.git'), /integration\.remote .* is not https/);
  });

  it("git: an http(s) remote's origin; ssh, scp-like and local remotes take no token", () => {
    assert.deepEqual(gitCredentialHost('https://github.com/o/r.git'), {
      host: 'github.com',
      origin: 'https://github.com/',
    });
    assert.equal(gitCredentialHost('git@github.com:o/r.git'), undefined);
    assert.equal(gitCredentialHost('ssh://git@github.com/o/r.git'), undefined);
    assert.equal(gitCredentialHost('/srv/git/r.git'), undefined);
  });

  it("the environment's tokens: GITHUB_TOKEN for github.com only; the enterprise one for GH_HOST only", async () => {
    const env = { GITHUB_TOKEN: 'dotcom', GH_ENTERPRISE_TOKEN: 'ghe', GH_HOST: 'GHE.example.com' };
    const tokens = envGitHubTokens(env);
    assert.equal(await tokens.get('github.com'), 'dotcom');
    assert.equal(await tokens.get('ghe.example.com'), 'ghe');
    assert.equal(await tokens.get('evil.example.com'), undefined);
    assert.equal(await envGitHubTokens({ GH_ENTERPRISE_TOKEN: 'ghe' }).get('ghe.example.com'), undefined, 'unbound');
    assert.equal(await envGitHubTokens({ GH_TOKEN: 'a', GITHUB_TOKEN: 'b' }).get('github.com'), 'a', 'gh order');
  });
});

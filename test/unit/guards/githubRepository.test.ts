import assert from 'node:assert/strict';
import { repositoryFromRemoteUrl } from '../../../src/core/github/githubRepository';

describe('the GitHub repository a remote URL names', () => {
  it('reads https, ssh and scp-like URLs, with or without .git', () => {
    const o = { owner: 'octo-org', repo: 'hello.world' };
    for (const url of [
      'https://github.com/octo-org/hello.world.git',
      'https://github.com/octo-org/hello.world',
      'https://x-access-token@github.example.com/octo-org/hello.world.git/',
      'ssh://git@github.com/octo-org/hello.world.git',
      'ssh://git@ghe.example.com:2222/octo-org/hello.world.git',
      'git@github.com:octo-org/hello.world.git',
      'github.com:octo-org/hello.world',
    ])
      assert.deepEqual(repositoryFromRemoteUrl(`${url}\n`), o, url);
  });

  it('names no repository for local paths, file URLs or other path shapes', () => {
    for (const url of [
      '/tmp/switchyard-bare-x',
      'file:///tmp/bare.git',
      '../bare',
      'C:\\repos\\x',
      'https://github.com/only',
    ])
      assert.equal(repositoryFromRemoteUrl(url), undefined, url);
  });
});

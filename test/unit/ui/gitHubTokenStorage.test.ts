import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GitHubTokenStorage, gitHubTokenKey } from '../../../src/ui/secrets/gitHubTokenStorage';

/** VS Code's SecretStorage over a Map (get, store, delete as the API defines them). */
function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  const storage = {
    get: async (key: string) => map.get(key),
    store: async (key: string, value: string) => void map.set(key, value),
    delete: async (key: string) => void map.delete(key),
  } as unknown as vscode.SecretStorage;
  return { map, storage };
}

const LEGACY = 'switchyard.secret.GITHUB_TOKEN';
const OLD_TOKEN = ['ghp', 'StoredByAnEarlierVersion0000000000000c3'].join('_');
const GHE_TOKEN = ['ghp', 'ForTheEnterpriseServerOnly000000000000d4'].join('_');

describe('GitHub tokens in VS Code secret storage, one per host', () => {
  it('the single token of an earlier version becomes the github.com token, and only that', async () => {
    const { map, storage } = memoryStorage({ [LEGACY]: OLD_TOKEN });
    const tokens = new GitHubTokenStorage(storage);
    assert.equal(await tokens.get('ghe.example.com'), undefined, 'not handed to another host');
    assert.equal(await tokens.get('github.com'), OLD_TOKEN);
    assert.equal(map.has(LEGACY), false, 'the all-hosts key is gone');
    assert.equal(map.get(gitHubTokenKey('github.com')), OLD_TOKEN);
  });

  it('a token stored per host stays its own; the legacy one never replaces it', async () => {
    const { map, storage } = memoryStorage({ [LEGACY]: OLD_TOKEN, [gitHubTokenKey('github.com')]: 'newer' });
    const tokens = new GitHubTokenStorage(storage);
    await tokens.store('ghe.example.com', GHE_TOKEN);
    assert.equal(await tokens.get('github.com'), 'newer');
    assert.equal(await tokens.get('ghe.example.com'), GHE_TOKEN);
    assert.equal(await tokens.get('127.0.0.1:9999'), undefined);
    assert.equal(map.has(LEGACY), false);
    await tokens.delete('ghe.example.com');
    assert.equal(await tokens.has('ghe.example.com'), false);
    assert.equal(await tokens.has('github.com'), true);
    assert.match(tokens.howToSet('ghe.example.com'), /Set GitHub Token" and store a token for ghe\.example\.com/);
  });
});

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

describe('switchyard config set for pull-request mode', function () {
  this.timeout(120_000);

  it('sets every pull-request setting, and refuses a bad one naming the key', async () => {
    const repo = await makeTempRepo();
    const home = await makeTempDir();
    const env = { ...process.env, XDG_CONFIG_HOME: home.dir, SWITCHYARD_BACKEND: 'files' };
    const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir], { env });
    try {
      const values: [string, string][] = [
        ['integration.mode', 'pull-request'],
        ['integration.base', 'main'],
        ['integration.remote', 'upstream'],
        ['integration.mergeMethod', 'rebase'],
        ['integration.draft', 'true'],
        ['integration.ciTimeoutSeconds', '900'],
        ['integration.ciPollSeconds', '15'],
        ['wip.AWAITING_CI', '6'],
        ['github.apiUrl', 'https://ghe.example.com/api/v3'],
        ['github.repository', 'octo-org/hello'],
        ['github.app', '{"appId": 12, "installationId": 34, "privateKeyFile": "keys/app.pem"}'],
      ];
      for (const [key, value] of values) {
        const set = await cli('config', 'set', key, value);
        assert.equal(set.code, 0, `${key}: ${set.err}`);
      }
      const config = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'config.json'), 'utf8'));
      assert.deepEqual(config.integration, {
        mode: 'pull-request',
        base: 'main',
        remote: 'upstream',
        mergeMethod: 'rebase',
        draft: true,
        ciTimeoutSeconds: 900,
        ciPollSeconds: 15,
      });
      assert.deepEqual(config.github, {
        apiUrl: 'https://ghe.example.com/api/v3',
        repository: 'octo-org/hello',
        app: { appId: 12, installationId: 34, privateKeyFile: 'keys/app.pem' },
      });
      assert.equal(config.wip.AWAITING_CI, 6);
      const bad = await cli('config', 'set', 'github.repository', 'not a repo');
      assert.equal(bad.code, 2);
      assert.match(bad.err, /invalid value for github\.repository/);
      const method = await cli('config', 'set', 'integration.mergeMethod', 'octopus');
      assert.match(method.err, /invalid value for integration\.mergeMethod: expected one of merge, squash, rebase/);
    } finally {
      await repo.cleanup();
      await home.cleanup();
    }
  });
});

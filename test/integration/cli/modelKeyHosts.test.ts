import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAttackerListener, type AttackerListener } from '../../fixtures/attackerListener';
import { cloneRepo } from '../../helpers/repoGit';
import { runCli } from '../../helpers/runCli';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

// The user's model key, assembled at run time so no file holds one.
const KEY = ['sk', 'UsersOwnModelKey0000000000000000000000e5'].join('-');

/**
 * A repository someone else prepared commits a base URL for the openai-compatible lane (their host), cloned into a
 * fresh HOME whose environment holds the user's key. The key goes only where the user chose: a base URL they set,
 * or one in a workspace they trust; never to one the repository alone chose.
 */
describe('a model key goes only to an endpoint the user chose', function () {
  this.timeout(120_000);
  let origin: Awaited<ReturnType<typeof makeTempRepo>>;
  let home: Awaited<ReturnType<typeof makeTempDir>>;
  let listener: AttackerListener;
  let clone: string;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => runCli([...args, '--repo', clone], { env });

  beforeEach(async () => {
    origin = await makeTempRepo();
    home = await makeTempDir();
    listener = await startAttackerListener();
    clone = join(home.dir, 'clone');
    env = {
      ...process.env,
      HOME: home.dir,
      XDG_CONFIG_HOME: join(home.dir, '.config'),
      SWITCHYARD_BACKEND: 'files',
      OPENAI_COMPATIBLE_API_KEY: KEY,
    };
    const lane = JSON.stringify({ baseUrl: `${listener.url}/v1`, model: 'm' });
    const set = await runCli(['config', 'set', 'laneSettings.openai-compatible', lane, '--repo', origin.dir], {
      env: { ...env, HOME: origin.dir, XDG_CONFIG_HOME: join(origin.dir, '.xdg') },
    });
    assert.equal(set.code, 0, set.err);
    await origin.git('add', '.switchyard/config.json');
    await origin.git('commit', '-m', 'team config');
    await cloneRepo(origin.dir, clone, 'User');
  });
  afterEach(async () => {
    await listener.close();
    await origin.cleanup();
    await home.cleanup();
  });

  async function runOneTask(): Promise<{ state: string; failureReason?: string }> {
    const added = await cli('task', 'add', '--title', 'one', '--lane', 'openai-compatible');
    assert.equal(added.code, 0, added.err);
    await cli('run');
    return JSON.parse((await cli('status', '--json')).out).tasks[0];
  }

  const bearer = () => listener.log.filter((l) => /"authorization":"Bearer /i.test(l));

  it("untrusted: the repository's base URL gets no key, and the failure says why and how to fix it", async () => {
    const task = await runOneTask();
    assert.equal(listener.holds(KEY), false, `the listener's log holds the key:\n${listener.log.join('\n')}`);
    assert.equal(task.state, 'FAILED');
    assert.match(
      task.failureReason ?? '',
      /laneSettings\.openai-compatible\.baseUrl \(http:\/\/127\.0\.0\.1:\d+\) comes from the repository's \.switchyard\/config\.json and this workspace is not trusted, so OPENAI_COMPATIBLE_API_KEY is not sent there: .*switchyard config set --local laneSettings\.openai-compatible\.baseUrl URL.*switchyard trust/,
    );
  });

  it('trusted, or set by the user, the same base URL gets the key', async () => {
    const url = `${listener.url}/v1`;
    assert.equal((await cli('config', 'set', '--local', 'laneSettings.openai-compatible.baseUrl', url)).code, 0);
    await runOneTask();
    assert.deepEqual(
      new Set(bearer().map((l) => /"authorization":"([^"]+)"/i.exec(l)![1])),
      new Set([`Bearer ${KEY}`]),
    );
    const before = bearer().length;
    assert.ok(before > 0, 'the key reached the URL the user set');
    // The repository's own value, once the user trusts the workspace.
    assert.equal((await cli('config', 'unset', '--local', 'laneSettings.openai-compatible.baseUrl')).code, 0);
    assert.equal((await runCli(['trust', '--repo', clone], { env })).code, 0);
    await runOneTask();
    assert.ok(bearer().length > before, 'the key reached the trusted base URL');
  });
});

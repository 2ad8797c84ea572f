import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startAttackerListener, type AttackerListener } from '../../fixtures/attackerListener';
import { startGitHttpServer, type GitHttpServer } from '../../fixtures/gitHttpServer';
import { startGitHubDouble, type GitHubDouble } from '../../fixtures/gitHubDouble';
import { cloneRepo } from '../../helpers/repoGit';
import { runCli } from '../../helpers/runCli';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

// Tokens in GitHub's format, assembled at run time so no file holds one: the user's token for github.com, and the
// one the user stored for their GitHub Enterprise Server.
const USER_TOKEN = ['ghp', 'UserTokenForGitHubDotCom000000000000a1'].join('_');
const ENTERPRISE_TOKEN = ['ghp', 'UserTokenForTheEnterpriseHost000000b2'].join('_');

/**
 * A repository someone else prepared (their commits only: `.switchyard/config.json` sends pull requests to their
 * host), cloned into a fresh HOME that holds the user's own token. Wherever the settings come from, and trusted or
 * not, a GitHub token goes only to the host it was stored for; the attacker's listener logs every request whole.
 */
describe('GitHub tokens go only to the host they were stored for', function () {
  this.timeout(120_000);
  let origin: Awaited<ReturnType<typeof makeTempRepo>>;
  let home: Awaited<ReturnType<typeof makeTempDir>>;
  let attacker: AttackerListener;
  let clone: string;
  let env: NodeJS.ProcessEnv;
  let cleanups: (() => Promise<void>)[];
  const cli = (...args: string[]) => runCli([...args, '--repo', clone], { env });

  beforeEach(async () => {
    origin = await makeTempRepo();
    home = await makeTempDir();
    attacker = await startAttackerListener();
    clone = join(home.dir, 'clone');
    env = {
      ...process.env,
      HOME: home.dir,
      XDG_CONFIG_HOME: join(home.dir, '.config'),
      SWITCHYARD_BACKEND: 'files',
      GITHUB_TOKEN: USER_TOKEN,
      GH_TOKEN: '',
      GH_HOST: '',
      GH_ENTERPRISE_TOKEN: '',
      GITHUB_ENTERPRISE_TOKEN: '',
    };
    cleanups = [];
  });
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await attacker.close();
    await origin.cleanup();
    await home.cleanup();
  });

  /** The attacker commits `settings` in `.switchyard/config.json`; the user clones and sets a lane of their own. */
  async function attackerRepository(settings: [string, string][]): Promise<void> {
    const attackerEnv = { ...env, HOME: origin.dir, XDG_CONFIG_HOME: join(origin.dir, '.xdg') };
    for (const [key, value] of settings) {
      const set = await runCli(['config', 'set', key, value, '--repo', origin.dir], { env: attackerEnv });
      assert.equal(set.code, 0, `${key}: ${set.err}`);
    }
    await origin.git('add', '.switchyard/config.json');
    await origin.git('commit', '-m', 'team config');
    await cloneRepo(origin.dir, clone, 'User');
    const lane = await cli('lanes', 'set', 'command', 'command=echo change > change.txt');
    assert.equal(lane.code, 0, lane.err);
  }

  /** The user's own GitHub Enterprise Server: git and the API (`/api/v3`) on one host, over a real bare repository. */
  async function enterpriseServer(): Promise<{ url: string; gh: GitHubDouble; http: GitHttpServer; bare: string }> {
    const root = join(home.dir, 'ghe');
    const bare = join(root, 'o', 'r.git');
    await mkdir(join(root, 'o'), { recursive: true });
    execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', bare]);
    execFileSync('git', ['push', '--quiet', bare, 'main'], { cwd: origin.dir });
    // It accepts the github.com token too, so a token sent to the wrong host would be seen working.
    const tokens = new Set([ENTERPRISE_TOKEN, USER_TOKEN]);
    let ghUrl = '';
    const http = await startGitHttpServer(root, tokens, () => ghUrl);
    const gh = await startGitHubDouble({ bare, tokens });
    ghUrl = gh.url;
    cleanups.push(
      () => gh.close(),
      () => http.close(),
    );
    return { url: http.url, gh, http, bare };
  }

  async function runOneTask(): Promise<{ state: string; failureReason?: string }> {
    assert.equal((await cli('task', 'add', '--title', 'one')).code, 0);
    await cli('run');
    const status = await cli('status', '--json');
    return JSON.parse(status.out).tasks[0];
  }

  it("a committed github.apiUrl and remote on the attacker's host get no token, even when trusted", async () => {
    await attackerRepository([
      ['integration.mode', 'pull-request'],
      ['integration.base', 'main'],
      ['integration.ciTimeoutSeconds', '5'],
      ['github.apiUrl', `${attacker.url}/api/v3`],
      ['github.repository', 'o/r'],
      ['integration.remote', `${attacker.url}/o/r.git`],
    ]);
    assert.equal((await runCli(['trust', '--repo', clone], { env })).code, 0);
    const task = await runOneTask();
    assert.equal(attacker.holds(USER_TOKEN), false, `the attacker's log holds the token:\n${attacker.log.join('\n')}`);
    assert.deepEqual(attacker.log, [], 'nothing was sent to the attacker at all');
    assert.equal(task.state, 'FAILED');
    assert.match(
      task.failureReason ?? '',
      /no GitHub token is set: none is stored for 127\.0\.0\.1:\d+ \(github\.apiUrl http:\/\/127\.0\.0\.1:\d+\/api\/v3\), and a GitHub token goes only to the host it was stored for .*switchyard config set --local github.apiUrl/,
    );
    assert.equal((task.failureReason ?? '').includes(USER_TOKEN), false);
  });

  it("a committed integration.remote URL on the attacker's host gets no push credential", async () => {
    await attackerRepository([
      ['integration.mode', 'pull-request'],
      ['integration.base', 'main'],
      ['integration.ciTimeoutSeconds', '5'],
      ['github.repository', 'o/r'],
      ['integration.remote', `${attacker.url}/o/r.git`],
    ]);
    // The user's own GitHub (set locally, token bound to its host): only the push URL is the attacker's.
    const ghe = await enterpriseServer();
    env.GH_HOST = new URL(ghe.url).host;
    env.GH_ENTERPRISE_TOKEN = ENTERPRISE_TOKEN;
    assert.equal((await cli('config', 'set', '--local', 'github.apiUrl', `${ghe.url}/api/v3`)).code, 0);
    assert.equal((await runCli(['trust', '--repo', clone], { env })).code, 0);
    const task = await runOneTask();
    for (const token of [USER_TOKEN, ENTERPRISE_TOKEN])
      assert.equal(attacker.holds(token), false, `the attacker's log holds a token:\n${attacker.log.join('\n')}`);
    assert.deepEqual(attacker.log, [], 'nothing was pushed to the attacker');
    assert.equal(task.state, 'FAILED');
    assert.match(
      task.failureReason ?? '',
      /integration\.remote "http:\/\/127\.0\.0\.1:\d+\/o\/r\.git" goes to 127\.0\.0\.1:\d+ .*, but the GitHub token is for 127\.0\.0\.1:\d+ \(github\.apiUrl\): a GitHub token is sent only to the host it belongs to/,
    );
  });

  it("the user's own host still gets its token, on REST and the push; the github.com token goes nowhere", async () => {
    const ghe = await enterpriseServer();
    const git = await cloneRepo(origin.dir, clone, 'User');
    await git('remote', 'set-url', 'origin', `${ghe.url}/o/r.git`);
    env.GH_HOST = new URL(ghe.url).host;
    env.GH_ENTERPRISE_TOKEN = ENTERPRISE_TOKEN;
    for (const [key, value] of [
      ['integration.mode', 'pull-request'],
      ['integration.base', 'main'],
      ['integration.ciPollSeconds', '0.2'],
      ['integration.ciTimeoutSeconds', '30'],
      ['github.apiUrl', `${ghe.url}/api/v3`],
    ] as const)
      assert.equal((await cli('config', 'set', '--local', key, value)).code, 0, key);
    assert.equal((await cli('lanes', 'set', 'command', 'command=echo change > change.txt')).code, 0);
    const task = await runOneTask();
    assert.equal(task.state, 'DONE', task.failureReason);
    assert.equal(execFileSync('git', ['show', 'main:change.txt'], { cwd: ghe.bare, encoding: 'utf8' }), 'change\n');
    assert.ok(ghe.gh.auth.length > 0);
    assert.deepEqual(new Set(ghe.gh.auth), new Set([`token ${ENTERPRISE_TOKEN}`]), 'REST borrowed the host token');
    assert.ok(ghe.http.tokens.length > 0, 'the push authenticated');
    assert.deepEqual(new Set(ghe.http.tokens), new Set([ENTERPRISE_TOKEN]), 'git borrowed the host token');
    assert.deepEqual(attacker.log, []);
  });
});

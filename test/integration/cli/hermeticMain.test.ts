import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

// main() reads its working folder and environment from its arguments only:
// these tests run it elsewhere and with other variables than this process has.
describe('CLI main() is hermetic: its folder and environment are arguments', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  const checkoutState = join(process.cwd(), '.switchyard');
  let checkoutHadState: boolean;
  beforeEach(async () => {
    repo = await makeTempRepo();
    checkoutHadState = existsSync(checkoutState);
  });
  afterEach(async () => {
    await repo.cleanup();
    assert.equal(
      existsSync(checkoutState),
      checkoutHadState,
      'the CLI wrote nothing into the checkout the tests run in',
    );
  });

  it('without --repo, a command works on the folder it was given, not on the process working folder', async () => {
    const added = await runCli(['task', 'add', '--title', 'here'], { cwd: repo.dir });
    assert.equal(added.code, 0, added.err);
    const state = JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
    assert.deepEqual(
      state.tasks.map((t: { spec: { title: string } }) => t.spec.title),
      ['here'],
    );
    const status = await runCli(['status'], { cwd: repo.dir });
    assert.match(status.out, /t1\s+READY\s+command\s+0\s+here/);
    const lanes = await runCli(['lanes'], { cwd: repo.dir });
    assert.match(lanes.out, /^LANE\s+READY\s+KIND/m);
  });

  it('a relative --repo is taken from the given folder', async () => {
    const r = await runCli(['task', 'add', '--title', 'relative', '--repo', basename(repo.dir)], {
      cwd: dirname(repo.dir),
    });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /added t1 relative \(READY\)/);
    assert.ok(existsSync(join(repo.dir, '.switchyard', 'state.json')));
  });

  it('the backend comes from the given environment, not from process.env', async () => {
    assert.equal(process.env.SWITCHYARD_BACKEND, undefined, 'precondition: this process names no backend');
    const env = { ...process.env, SWITCHYARD_BACKEND: 'postgres', SWITCHYARD_DATABASE_URL: '' };
    const r = await runCli(['status', '--repo', repo.dir], { env });
    assert.equal(r.code, 1);
    assert.match(r.err, /SWITCHYARD_DATABASE_URL/);
    assert.equal(existsSync(join(repo.dir, '.switchyard', 'state.json')), false, 'no files backend was opened instead');
    assert.equal(
      (await runCli(['status', '--repo', repo.dir])).code,
      0,
      'with this process environment: the files backend',
    );
  });

  it('trust reads and writes the trust file of the given environment', async () => {
    const config = join(repo.dir, 'config');
    const env = { ...process.env, XDG_CONFIG_HOME: config };
    const trusted = await runCli(['trust', '--repo', repo.dir], { env });
    assert.equal(trusted.code, 0, trusted.err);
    assert.match(
      trusted.out,
      new RegExp(`is trusted: .*\\(${join(config, 'switchyard', 'trusted-workspaces.json')}\\)`),
    );
    assert.match((await runCli(['trust', '--repo', repo.dir], { env })).out, /is already trusted/);
    assert.match((await runCli(['trust', '--revoke', '--repo', repo.dir], { env })).out, /is no longer trusted/);
  });
});

import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGuardEvents } from '../../../src/core/guards/guardLog';
import { defaultHookCommand } from '../../../src/core/guards/installPrePushHook';
import { shellQuote } from '../../../src/core/text/shellQuote';
import { makePushSetup, run, type PushSetup } from './gitFixture';
import { testCliBundle } from './testCli';

const L = '<'.repeat(7);

/**
 * The hook's own entry (dist/hook.js): `guard install` run from the bundled CLI installs a hook that runs it, and
 * real `git push` runs go through it; a hook installed for the CLI itself (before hook.js existed) keeps working.
 */
describe('the pre-push hook entry (hook.js beside cli.js)', function () {
  this.timeout(60_000);
  let cli: string;
  let s: PushSetup;
  let cacheHome: string;
  const savedCacheHome = process.env.XDG_CACHE_HOME;
  const codeCache = (): string => join(cacheHome, 'switchyard', 'code-cache');

  before(async () => {
    cli = await testCliBundle();
    // The hook's code cache goes to a folder of this test's own (git passes the environment on to the hook).
    cacheHome = await mkdtemp(join(tmpdir(), 'switchyard-cache-'));
    process.env.XDG_CACHE_HOME = cacheHome;
  });
  after(async () => {
    if (savedCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = savedCacheHome;
    await rm(cacheHome, { recursive: true, force: true });
  });
  beforeEach(async () => {
    s = await makePushSetup();
  });
  afterEach(async () => s.cleanup());

  it('guard install from the bundled CLI makes the hook run hook.js: it refuses markers, allows the rest', async () => {
    const installed = await run(process.execPath, [cli, 'guard', 'install', '--repo', s.clone], s.clone);
    assert.equal(installed.code, 0, installed.stderr);
    const hook = await readFile(join(s.clone, '.git', 'hooks', 'pre-push'), 'utf8');
    assert.ok(hook.includes(shellQuote(join(cli, '..', 'hook.js'))), `the hook runs hook.js:\n${hook}`);

    const before = await s.remoteHead();
    await s.commit({ 'src/app.ts': `export const x = 1;\n${L} HEAD\n` }, 'half-resolved merge');
    const refused = await s.push('origin', 'main');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /switchyard pre-push guard: push blocked/);
    assert.match(refused.stderr, /src\/app\.ts:2: conflict marker/);
    assert.equal(await s.remoteHead(), before, 'the remote did not move');

    await s.commit({ 'src/app.ts': 'export const x = 2;\n' }, 'resolved');
    const pushed = await s.push('origin', 'main');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(await s.remoteHead(), await s.git('rev-parse', 'HEAD'));
    const verdicts = (await readGuardEvents(s.clone)).filter((e) => e.guard === 'conflict-markers');
    assert.deepEqual(
      verdicts.map((e) => e.verdict),
      ['block', 'pass'],
      'both pushes recorded by the hook entry',
    );
    assert.equal(
      (await readdir(codeCache())).filter((f) => f.endsWith('.bin')).length,
      2,
      "two code cache files: the CLI's (guard install) and the hook's, reused by the second push",
    );
  });

  it('keeps its code cache private: written once and reused; a folder others may write is not used', async () => {
    await rm(join(cacheHome, 'switchyard'), { recursive: true, force: true });
    const hook = join(cli, '..', 'hook.js');
    const first = await run(process.execPath, [hook, 'origin', s.remote], s.clone);
    assert.equal(first.code, 0, first.stderr);
    const [file] = await readdir(codeCache());
    assert.ok(file?.endsWith('.bin'), 'the first run wrote the cache');
    assert.equal((await stat(codeCache())).mode & 0o777, 0o700);
    assert.equal((await stat(join(codeCache(), file))).mode & 0o777, 0o600);
    const written = (await stat(join(codeCache(), file))).mtimeMs;
    await s.commit({ 'src/app.ts': `${L} HEAD\n` }, 'markers');
    const head = await s.git('rev-parse', 'HEAD');
    const base = await s.remoteHead();
    const blocked = await run(
      process.execPath,
      [hook, 'origin', s.remote],
      s.clone,
      `refs/heads/main ${head} refs/heads/main ${base}\n`,
    );
    assert.equal(blocked.code, 1, 'the cached code still refuses markers');
    assert.equal((await stat(join(codeCache(), file))).mtimeMs, written, 'the second run used the cache as it was');

    // A new build of the bundle: its cache replaces the old one, which is removed.
    const bundle = join(cli, '..', 'hookMain.js');
    await utimes(bundle, new Date(), new Date(Date.now() + 5_000));
    const rebuilt = await run(process.execPath, [hook, 'origin', s.remote], s.clone);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    const after = await readdir(codeCache());
    assert.equal(after.length, 1, `one cache for the bundle: ${after.join(', ')}`);
    assert.notEqual(after[0], file, 'the new build has a new cache');

    await rm(codeCache(), { recursive: true, force: true });
    await run('mkdir', ['-p', codeCache()], s.clone);
    await chmod(codeCache(), 0o777);
    const shared = await run(process.execPath, [hook, 'origin', s.remote], s.clone);
    assert.equal(shared.code, 0, shared.stderr);
    assert.deepEqual(await readdir(codeCache()), [], 'nothing written to a folder others may write');
  });

  it('a hook installed for the CLI itself keeps working', async () => {
    const command = `${shellQuote(process.execPath)} ${shellQuote(cli)}`;
    const installed = await run(
      process.execPath,
      [cli, 'guard', 'install', '--repo', s.clone, '--hook-command', command],
      s.clone,
    );
    assert.equal(installed.code, 0, installed.stderr);
    assert.ok(!(await readFile(join(s.clone, '.git', 'hooks', 'pre-push'), 'utf8')).includes('hook.js'));
    await s.commit({ 'src/app.ts': `${L} HEAD\n` }, 'markers');
    const refused = await s.push('origin', 'main');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /switchyard pre-push guard: push blocked/);
  });

  it('falls back to the CLI when no hook.js lies beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-hook-'));
    try {
      await writeFile(join(dir, 'cli.js'), '');
      assert.equal(
        defaultHookCommand(join(dir, 'cli.js'), '/usr/bin/node'),
        `'/usr/bin/node' ${shellQuote(join(dir, 'cli.js'))}`,
      );
      await writeFile(join(dir, 'hook.js'), '');
      assert.equal(
        defaultHookCommand(join(dir, 'cli.js'), '/usr/bin/node'),
        `'/usr/bin/node' ${shellQuote(join(dir, 'hook.js'))}`,
      );
      assert.equal(defaultHookCommand(join(dir, 'other.js')), undefined, 'not a CLI bundle: no command');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

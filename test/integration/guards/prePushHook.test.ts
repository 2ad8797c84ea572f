import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { readGuardEvents } from '../../../src/core/guards/guardLog';
import { CHAINED_HOOK } from '../../../src/core/guards/prePushHookScript';
import { makePushSetup, run, type PushSetup } from './gitFixture';
import { testCliCommand } from './testCli';

const L = '<'.repeat(7);
const R = '>'.repeat(7);
const SEP = '='.repeat(7);

function cli(...args: string[]) {
  return runCli(args);
}

/**
 * Acceptance: a real bare remote and clone, the hook installed by
 * `switchyard guard install`, and real `git push` runs.
 */
describe('pre-push guard hook (real git push)', function () {
  this.timeout(60_000);
  let s: PushSetup;
  let hookCommand: string;

  before(async () => {
    hookCommand = await testCliCommand();
  });
  beforeEach(async () => {
    s = await makePushSetup();
    const installed = await cli('guard', 'install', '--repo', s.clone, '--hook-command', hookCommand);
    assert.equal(installed.code, 0, installed.err);
    assert.match(installed.out, /installed the pre-push guard: .*\.git\/hooks\/pre-push/);
  });
  afterEach(async () => s.cleanup());

  it('refuses a push with committed conflict markers, naming file and line', async () => {
    const before = await s.remoteHead();
    await s.commit(
      { 'src/app.ts': `export const x = 1;\n${L} HEAD\nconst a = 1;\n${SEP}\nconst a = 2;\n${R} feature\n` },
      'half-resolved merge',
    );
    const pushed = await s.push('origin', 'main');
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, /switchyard pre-push guard: push blocked/);
    assert.match(pushed.stderr, /src\/app\.ts:2: conflict marker "<{7} HEAD"/);
    assert.match(pushed.stderr, /src\/app\.ts:6: conflict marker ">{7} feature"/);
    assert.equal(await s.remoteHead(), before, 'the remote must not move');
    const events = await readGuardEvents(s.clone);
    const markers = events.find((e) => e.guard === 'conflict-markers');
    assert.equal(markers?.verdict, 'block');
    assert.deepEqual(
      markers?.evidence.map((e) => `${e.file}:${e.line}`),
      ['src/app.ts:2', 'src/app.ts:6'],
    );
  });

  it('allows Markdown "=======" headings and marker-like text that is not at line start', async () => {
    const head = await s.commit(
      {
        'docs/guide.md': `Guide\n${SEP}\n\n| a | b |\n${SEP}|${SEP}\nQuote: "${L} not a marker at line start"\n ${R} indented\n`,
      },
      'docs',
    );
    const pushed = await s.push('origin', 'main');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(await s.remoteHead(), head);
    const events = await readGuardEvents(s.clone);
    assert.deepEqual(
      events.map((e) => `${e.guard}:${e.verdict}`),
      ['conflict-markers:pass', 'merge-policy:pass', 'secret-scan:pass'],
    );
  });

  it('checks what is committed, not the working tree', async () => {
    const head = await s.commit({ 'src/ok.ts': 'export {};\n' }, 'clean');
    await writeFile(join(s.clone, 'src/dirty.ts'), `${L} HEAD\n`);
    const pushed = await s.push('origin', 'main');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(await s.remoteHead(), head);
  });

  describe('merge policy (stage 2)', () => {
    /** feature/login forks from main, then merges origin/develop: a merge of another branch into a PR aimed at main. */
    async function mergeDevelopIntoFeature(): Promise<string> {
      await s.git('checkout', '-q', '-b', 'develop');
      const developTip = await s.commit({ 'src/develop-only.ts': 'export const d = 1;\n' }, 'develop work');
      await s.git('push', '-q', '--no-verify', 'origin', 'develop');
      await s.git('checkout', '-q', 'main');
      await s.git('checkout', '-q', '-b', 'feature/login');
      await s.commit({ 'src/login.ts': 'export const login = true;\n' }, 'login');
      await s.git('merge', '-q', '--no-edit', '--no-ff', 'origin/develop');
      return developTip;
    }

    async function writePolicy(text: string): Promise<void> {
      await mkdir(join(s.clone, '.switchyard'), { recursive: true });
      await writeFile(join(s.clone, '.switchyard', 'merge-policy.json'), text);
    }

    it('refuses a merge of a branch the policy does not allow, naming the parent and its source', async () => {
      await writePolicy(JSON.stringify({ rules: [{ feature: 'feature/*', base: 'main' }] }));
      const developTip = await mergeDevelopIntoFeature();
      const pushed = await s.push('origin', 'feature/login');
      assert.notEqual(pushed.code, 0);
      assert.match(
        pushed.stderr,
        new RegExp(`merge-policy: merge [0-9a-f]{12} brings in ${developTip.slice(0, 12)} from origin/develop`),
      );
      assert.equal(await s.remoteHead('feature/login'), '');
    });

    it('allows merging the base branch and allowed branches', async () => {
      await writePolicy(JSON.stringify({ rules: [{ feature: 'feature/*', base: 'main', allowed: ['develop'] }] }));
      await mergeDevelopIntoFeature();
      // Also bring main in again (the usual "update from base" merge).
      await s.git('checkout', '-q', 'main');
      await s.commit({ 'src/main-fix.ts': 'export const m = 2;\n' }, 'main fix');
      await s.git('push', '-q', '--no-verify', 'origin', 'main');
      await s.git('checkout', '-q', 'feature/login');
      await s.git('merge', '-q', '--no-edit', '--no-ff', 'origin/main');
      const pushed = await s.push('origin', 'feature/login');
      assert.equal(pushed.code, 0, pushed.stderr);
    });

    it('allows the same merge when there is no policy file', async () => {
      await mergeDevelopIntoFeature();
      const pushed = await s.push('origin', 'feature/login');
      assert.equal(pushed.code, 0, pushed.stderr);
      const policy = (await readGuardEvents(s.clone)).find((e) => e.guard === 'merge-policy');
      assert.equal(policy?.verdict, 'pass');
      assert.equal(policy?.rule, 'no-policy');
    });
  });

  describe('fail-safe', () => {
    it('lets the push through and records guard.error when a guard crashes (malformed policy file)', async () => {
      await mkdir(join(s.clone, '.switchyard'), { recursive: true });
      await writeFile(join(s.clone, '.switchyard', 'merge-policy.json'), '{"rules": [{"feature": "feature/*"}]}');
      const head = await s.commit({ 'src/b.ts': 'export const b = 2;\n' }, 'b');
      const pushed = await s.push('origin', 'main');
      assert.equal(pushed.code, 0, pushed.stderr);
      assert.equal(await s.remoteHead(), head);
      assert.match(
        pushed.stderr,
        /merge-policy could not run \(.*merge-policy\.json: rules\.0\.base: .*\); not blocking, recorded as guard\.error/,
      );
      const error = (await readGuardEvents(s.clone)).find((e) => e.verdict === 'error');
      assert.equal(error?.type, 'guard.error');
      assert.equal(error?.guard, 'merge-policy');
    });

    it('still blocks on markers when another stage crashes', async () => {
      await mkdir(join(s.clone, '.switchyard'), { recursive: true });
      await writeFile(join(s.clone, '.switchyard', 'merge-policy.json'), 'not json');
      await s.commit({ 'a.txt': `${L} HEAD\n` }, 'bad');
      const pushed = await s.push('origin', 'main');
      assert.notEqual(pushed.code, 0);
      assert.match(pushed.stderr, /a\.txt:1: conflict marker/);
    });

    it('lets the push through and records guard.error when the guard command itself cannot run', async () => {
      const broken = await cli(
        'guard',
        'install',
        '--repo',
        s.clone,
        '--hook-command',
        `'${process.execPath}' /nonexistent/switchyard/cli.js`,
      );
      assert.match(broken.out, /updated the pre-push guard/);
      const head = await s.commit({ 'a.txt': `${L} HEAD\n` }, 'would be blocked if the guard ran');
      const pushed = await s.push('origin', 'main');
      assert.equal(pushed.code, 0, pushed.stderr);
      assert.equal(await s.remoteHead(), head);
      assert.match(pushed.stderr, /the pre-push guard could not run \(exit 1\); push allowed/);
      const [event] = await readGuardEvents(s.clone);
      assert.equal(event?.type, 'guard.error');
      assert.match(event?.verdict === 'error' ? event.error : '', /exited with status 1/);
    });
  });

  it("chains to the hook it replaced, passing git's stdin, and does not chain to itself when installed twice", async () => {
    // A fresh repository: the user's own hook is there first, then Switchyard is installed.
    await s.cleanup();
    s = await makePushSetup();
    const hooks = join(s.clone, '.git', 'hooks');
    const seen = join(s.root, 'seen.txt');
    await mkdir(hooks, { recursive: true });
    await writeFile(join(hooks, 'pre-push'), `#!/bin/sh\ncat > '${seen}'\necho "user hook ran for $1" >&2\nexit 0\n`);
    await chmod(join(hooks, 'pre-push'), 0o755);
    assert.equal((await cli('guard', 'install', '--repo', s.clone, '--hook-command', hookCommand)).code, 0);
    const again = await cli('guard', 'install', '--repo', s.clone, '--hook-command', hookCommand);
    assert.match(again.out, /updated the pre-push guard/);
    assert.match(await readFile(join(hooks, CHAINED_HOOK), 'utf8'), /user hook ran/);
    const head = await s.commit({ 'c.txt': 'fine\n' }, 'c');
    const pushed = await s.push('origin', 'main');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.match(pushed.stderr, /user hook ran for origin/);
    assert.match(await readFile(seen, 'utf8'), new RegExp(`^refs/heads/main ${head} refs/heads/main [0-9a-f]{40}\\n$`));

    // The chained hook's verdict counts: a refusing user hook refuses the push.
    await writeFile(join(hooks, CHAINED_HOOK), '#!/bin/sh\necho "user hook says no" >&2\nexit 3\n');
    await s.commit({ 'd.txt': 'fine\n' }, 'd');
    const refused = await s.push('origin', 'main');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /user hook says no/);
  });

  it("installs into a run worktree only, keeping the repository hooks and forwarding the user's other hooks", async () => {
    const wt = join(s.root, 'wt');
    await s.git('worktree', 'add', '-q', '-b', 'switchyard/t1/1', wt);
    const repoHook = await readFile(join(s.clone, '.git', 'hooks', 'pre-push'), 'utf8');
    await writeFile(
      join(s.clone, '.git', 'hooks', 'post-commit'),
      `#!/bin/sh\necho ran > '${join(s.root, 'post-commit-ran')}'\n`,
    );
    await chmod(join(s.clone, '.git', 'hooks', 'post-commit'), 0o755);
    // The repository hook is Switchyard's: the worktree must not run the guard twice.
    const installed = await cli('guard', 'install', '--repo', wt, '--hook-command', hookCommand);
    assert.match(installed.out, /\(this worktree only\)/);
    assert.equal(await readFile(join(s.clone, '.git', 'hooks', 'pre-push'), 'utf8'), repoHook);
    const hooksPath = (
      await run('git', ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], wt)
    ).stdout.trim();
    assert.match(hooksPath, /\.git\/worktrees\/wt\/switchyard-hooks$/);
    assert.equal(
      (await run('git', ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], s.clone)).stdout.trim(),
      join(s.clone, '.git', 'hooks'),
    );
    await stat(join(hooksPath, 'post-commit'));

    await writeFile(join(wt, 'x.txt'), `${L} HEAD\n`);
    await run('git', ['add', '-A'], wt);
    assert.equal((await run('git', ['commit', '-q', '-m', 'x'], wt)).code, 0);
    await stat(join(s.root, 'post-commit-ran')); // the user's hook still runs in the worktree
    const pushed = await run('git', ['push', 'origin', 'switchyard/t1/1'], wt);
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, /x\.txt:1: conflict marker/);
    assert.equal((pushed.stderr.match(/push blocked/g) ?? []).length, 1, 'the guard runs once');
    // Verdicts from the worktree are recorded in the main repository.
    assert.ok((await readGuardEvents(s.clone)).some((e) => e.verdict === 'block'));
  });
});

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { WorktreeSettings } from '../../../src/core/store/orchestratorSettings';
import { makeTempRepo } from '../../helpers/tempRepo';

const run = promisify(execFile);
const PREPARE = resolve(__dirname, '../../../src/core/workspace/prepareWorktree.ts');

/** One process preparing one worktree, as a worker on the same repository would; prints the outcome as JSON. */
const SCRIPT = `
const { prepareWorktree } = require(${JSON.stringify(PREPARE)});
const [root, worktree, settings] = process.argv.slice(1);
prepareWorktree({
  root, worktree, settings: JSON.parse(settings), env: { PATH: process.env.PATH },
  onLine: () => {}, onDecision: () => {},
}).then((o) => console.log(JSON.stringify(o)));
`;

describe('setup cache across processes', function () {
  this.timeout(120_000);

  it('three processes missing the same entry at once: one installs and stores it whole, two restore it', async () => {
    const repo = await makeTempRepo({ 'package-lock.json': '{"lockfileVersion":3}\n', '.gitignore': 'deps/\n' });
    try {
      const counter = join(repo.dir, '..', `${repo.dir.split('/').pop()}-installs`);
      const settings = WorktreeSettings.parse({
        setup: [`echo install >> "${counter}"; sleep 1; mkdir -p deps/a && echo installed > deps/a/file.txt`],
      });
      const worktrees = ['w1', 'w2', 'w3'].map((w) => join(repo.dir, '.switchyard', 'worktrees', w));
      for (const [i, w] of worktrees.entries())
        execFileSync('git', ['worktree', 'add', '-q', '-b', `b${i}`, w], { cwd: repo.dir });
      const outcomes = await Promise.all(
        worktrees.map(async (w) => {
          const { stdout } = await run(process.execPath, [
            '--import',
            'tsx',
            '-e',
            SCRIPT,
            repo.dir,
            w,
            JSON.stringify(settings),
          ]);
          return JSON.parse(stdout.trim().split('\n').at(-1)!) as { ok: boolean; setup: { cache: string } };
        }),
      );
      assert.deepEqual(
        outcomes.map((o) => o.ok),
        [true, true, true],
      );
      assert.deepEqual(outcomes.map((o) => o.setup.cache).sort(), ['hit', 'hit', 'stored']);
      assert.equal((await readFile(counter, 'utf8')).trim().split('\n').length, 1, 'one install');
      for (const w of worktrees) assert.equal(await readFile(join(w, 'deps', 'a', 'file.txt'), 'utf8'), 'installed\n');
      const cache = await readdir(join(repo.dir, '.switchyard', 'setup-cache'));
      assert.deepEqual(
        cache.filter((n) => n.startsWith('.tmp')),
        [],
        'no temporary folder left',
      );
      const entries = cache.filter((n) => !n.endsWith('.lock'));
      assert.equal(entries.length, 1);
      assert.deepEqual(
        JSON.parse(await readFile(join(repo.dir, '.switchyard', 'setup-cache', entries[0]!, 'entry.json'), 'utf8')),
        { paths: ['deps'], bytes: 'installed\n'.length },
      );

      // Another lockfile: another entry.
      const w4 = join(repo.dir, '.switchyard', 'worktrees', 'w4');
      execFileSync('git', ['worktree', 'add', '-q', '-b', 'b4', w4], { cwd: repo.dir });
      await writeFile(join(w4, 'package-lock.json'), '{"lockfileVersion":3,"changed":true}\n');
      const { stdout } = await run(process.execPath, [
        '--import',
        'tsx',
        '-e',
        SCRIPT,
        repo.dir,
        w4,
        JSON.stringify(settings),
      ]);
      assert.equal(JSON.parse(stdout.trim()).setup.cache, 'stored');
      assert.equal((await readFile(counter, 'utf8')).trim().split('\n').length, 2, 'a changed lockfile installs again');
      await rm(counter, { force: true });
    } finally {
      await repo.cleanup();
    }
  });
});

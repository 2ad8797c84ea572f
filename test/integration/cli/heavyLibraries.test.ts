import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildDistBundles } from '../../helpers/distBundles';
import { makeTempRepo } from '../../helpers/tempRepo';

const run = promisify(execFile);

/** The libraries a command-lane project never needs: each is loaded only by the lane, backend or flow that uses it. */
const HEAVY = [
  'ai',
  '@ai-sdk/anthropic',
  '@ai-sdk/openai-compatible',
  '@octokit/rest',
  '@octokit/auth-app',
  'pg',
  '@secretlint/core',
  '@secretlint/secretlint-rule-preset-recommend',
];

/** Loaded first (`node -r`): writes every package the bundle requires to $LOADED, one a line, at exit. */
const RECORDER = `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const load = Module._load;
const seen = new Set();
Module._load = function (request, ...rest) {
  if (!request.startsWith('.') && !request.startsWith('node:') && !request.startsWith('/')) seen.add(request);
  return load.call(this, request, ...rest);
};
process.on('exit', () => appendFileSync(process.env.LOADED, [...seen].map((s) => s + '\\n').join('')));
`;

/**
 * The CLI bundled as `npm run build` does (cli.js loading cliMain.js), but with the heavy libraries left out of the
 * bundle, so that a real process shows which of them a command loads: `status`, `lanes` and `task add` load none of
 * them, a drain of a command-lane task only secretlint (its change is scanned for secrets).
 */
describe('heavy libraries load only where they are used', function () {
  this.timeout(120_000);
  let dir: string;
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-heavy-'));
    await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    await writeFile(join(dir, 'recorder.cjs'), RECORDER);
    await buildDistBundles(
      dir,
      [
        ['src/cli/bin.ts', 'cli.js'],
        ['src/cli/cliMain.ts', 'cliMain.js'],
      ],
      // import() of a left-out library as require(), so that the recorder sees it.
      { external: HEAVY, supported: { 'dynamic-import': false } },
    );
  });
  after(async () => rm(dir, { recursive: true, force: true }));
  beforeEach(async () => (repo = await makeTempRepo()));
  afterEach(async () => repo.cleanup());

  async function loadedBy(args: string[], input = ''): Promise<string[]> {
    const list = join(dir, `loaded-${Date.now()}.txt`);
    await writeFile(list, '');
    const r = spawnSync(process.execPath, ['-r', join(dir, 'recorder.cjs'), join(dir, 'cli.js'), ...args], {
      cwd: repo.dir,
      input,
      encoding: 'utf8',
      env: { ...process.env, LOADED: list, NODE_PATH: resolve('node_modules'), XDG_CACHE_HOME: join(dir, 'cache') },
    });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return (await readFile(list, 'utf8')).split('\n').filter(Boolean);
  }

  it('status, lanes and task add load none of them; a command-lane drain only secretlint', async () => {
    await run(process.execPath, [join(dir, 'cli.js'), 'lanes', 'set', 'command', 'command=echo hi > f.txt'], {
      cwd: repo.dir,
      env: { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') },
    });
    const readOnly = [
      ...(await loadedBy(['task', 'add', '--title', 'one change'])),
      ...(await loadedBy(['status'])),
      ...(await loadedBy(['lanes'])),
    ];
    assert.deepEqual(
      HEAVY.filter((h) => readOnly.includes(h)),
      [],
      `loaded: ${readOnly.join(', ')}`,
    );
    // The drain scans the run's change for secrets before it merges it: secretlint, and nothing else of them.
    const drain = await loadedBy(['run']);
    const status = await run(process.execPath, [join(dir, 'cli.js'), 'status', '--json', '--repo', repo.dir], {
      env: { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') },
    });
    assert.deepEqual(
      (JSON.parse(status.stdout) as { tasks: { state: string }[] }).tasks.map((t) => t.state),
      ['DONE'],
      'the drain ran the task',
    );
    assert.deepEqual(
      HEAVY.filter((h) => drain.includes(h) && !h.startsWith('@secretlint/')),
      [],
      `loaded: ${drain.join(', ')}`,
    );
  });

  it('the pre-push guard loads secretlint to scan a push (the recorder sees what a command loads)', async () => {
    const base = (await run('git', ['-C', repo.dir, 'rev-parse', 'HEAD'])).stdout.trim();
    await writeFile(join(repo.dir, 'notes.txt'), 'nothing secret\n');
    await run('git', ['-C', repo.dir, 'add', '.']);
    await run('git', ['-C', repo.dir, 'commit', '-qm', 'notes']);
    const head = (await run('git', ['-C', repo.dir, 'rev-parse', 'HEAD'])).stdout.trim();
    const loaded = await loadedBy(
      ['guard', 'pre-push', 'origin', 'x'],
      `refs/heads/main ${head} refs/heads/main ${base}\n`,
    );
    assert.ok(loaded.includes('@secretlint/core'), `loaded: ${loaded.join(', ')}`);
    assert.deepEqual(
      loaded.filter((l) => ['ai', 'pg', '@octokit/rest'].includes(l)),
      [],
    );
  });
});

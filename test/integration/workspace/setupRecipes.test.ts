import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { createCommandLane } from '../../../plugins/command';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { initRepo } from '../../helpers/repoGit';

/**
 * The setup recipes of docs/worktrees.md for pnpm and a Python venv, run for real: each command exactly as the
 * recipe table gives it, in a worktree of a small real project whose dependency is local (a tarball, a wheel).
 * No network: HOME is a temp folder whose npm/pnpm and pip configuration point every registry and index at a
 * closed loopback port, so a recipe that needed the network would fail here.
 */

const PNPM_RECIPE = 'pnpm install --frozen-lockfile';
const VENV_RECIPE = 'python3 -m venv .venv && .venv/bin/pip install -r requirements.txt';
const CLOSED = 'http://127.0.0.1:9';
const BIN = resolve(__dirname, '../../../node_modules/.bin');

/** A wheel written by hand (PEP 427: the package, METADATA, WHEEL, RECORD with sha256 digests). */
const WHEEL_SCRIPT = `
import base64, hashlib, sys, zipfile
files = {'greet/__init__.py': 'ANSWER = 42\\n',
         'greet-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\\nName: greet\\nVersion: 1.0\\n',
         'greet-1.0.dist-info/WHEEL':
             'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}
def digest(text):
    return 'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()
record = ''.join(f'{n},{digest(c)},{len(c.encode())}\\n' for n, c in files.items()) + 'greet-1.0.dist-info/RECORD,,\\n'
with zipfile.ZipFile(sys.argv[1], 'w') as wheel:
    for name, text in files.items():
        wheel.writestr(name, text)
    wheel.writestr('greet-1.0.dist-info/RECORD', record)
`;

async function open(dir: string, setup: string) {
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  const project = await Project.open(dir, {
    registry,
    keepIntegratedWorktrees: true,
    trusted: true,
  });
  await project.settings.update((s) => {
    s.laneSettings.command = { command: 'echo work > work.txt' };
    s.retryCaps.command = 1;
    s.worktree.setup = [setup];
    // Off, so the recipe itself runs in the worktree (a cache hit would restore its result instead).
    s.worktree.setupCache = false;
  });
  return project;
}

/** Runs one task with `acceptance`; asserts DONE and that the setup's own output is in the run's log. */
async function runTask(project: Project, acceptance: string, setupSays: RegExp) {
  await project.tasks.addMany([{ title: 'a', acceptance }]);
  await project.runQueue();
  const state = await project.state();
  const run = state.runs[0]!;
  assert.equal(state.tasks[0]!.state, 'DONE', run.failureReason);
  const setupLines = (await project.runs.log(run.id)).filter((l) => l.type === 'setup');
  assert.match(JSON.stringify(setupLines), setupSays);
  return run;
}

describe('docs/worktrees.md setup recipes, run offline (pnpm, Python venv)', function () {
  this.timeout(180_000);
  let scratch: string;
  let repo: string;
  let project: Project | undefined;
  const saved = { PATH: process.env.PATH, HOME: process.env.HOME };
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'switchyard-recipes-'));
    const home = join(scratch, 'home');
    repo = join(scratch, 'repo');
    await mkdir(join(home, '.config', 'pip'), { recursive: true });
    await mkdir(repo);
    await writeFile(join(home, '.npmrc'), `registry=${CLOSED}/\nupdate-notifier=false\n`);
    await writeFile(
      join(home, '.config', 'pip', 'pip.conf'),
      `[global]\nindex-url = ${CLOSED}/simple\ndisable-pip-version-check = true\n`,
    );
    // Setup commands get the base environment (PATH, HOME, …) of this process: the pinned pnpm first on PATH.
    process.env.PATH = `${BIN}${delimiter}${saved.PATH}`;
    process.env.HOME = home;
    env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    env.XDG_DATA_HOME = join(home, '.local', 'share');
    env.XDG_CACHE_HOME = join(home, '.cache');
  });
  afterEach(async () => {
    await project?.close();
    project = undefined;
    process.env.PATH = saved.PATH;
    process.env.HOME = saved.HOME;
    await rm(scratch, { recursive: true, force: true });
  });

  async function commit(ignored: string) {
    await writeFile(join(repo, '.gitignore'), ignored);
    return initRepo(repo, 'a project');
  }

  it(`pnpm: \`${PNPM_RECIPE}\` installs a committed pnpm-lock.yaml's dependency; \`pnpm test\` passes`, async () => {
    const depDir = join(scratch, 'dep');
    await mkdir(depDir);
    await writeFile(join(depDir, 'package.json'), JSON.stringify({ name: 'dep', version: '1.0.0', main: 'index.js' }));
    await writeFile(join(depDir, 'index.js'), 'module.exports = { answer: 42 };\n');
    execFileSync('npm', ['pack', '--silent', '--pack-destination', repo], { cwd: depDir, env, stdio: 'pipe' });
    const test = 'node -e "process.exit(require(\'dep\').answer === 42 ? 0 : 1)"';
    const pkg = { name: 'proj', version: '1.0.0', private: true, scripts: { test } };
    await writeFile(
      join(repo, 'package.json'),
      JSON.stringify({ ...pkg, dependencies: { dep: 'file:dep-1.0.0.tgz' } }),
    );
    // The lockfile is pnpm's own; the main checkout's node_modules is removed so that a worktree's `require`
    // cannot walk up to it and pass without the worktree's install.
    execFileSync('pnpm', ['install', '--lockfile-only'], { cwd: repo, env, stdio: 'pipe' });
    assert.match(await readFile(join(repo, 'pnpm-lock.yaml'), 'utf8'), /dep@file:dep-1\.0\.0\.tgz/);
    await rm(join(repo, 'node_modules'), { recursive: true, force: true });
    const git = await commit('node_modules/\n');

    project = await open(repo, PNPM_RECIPE);
    const run = await runTask(project, 'pnpm test', /Done in [\d.]+m?s using pnpm v10\./);
    assert.ok((await lstat(join(run.worktree, 'node_modules', 'dep', 'index.js'))).isFile());
    assert.doesNotMatch(await git('ls-tree', '-r', '--name-only', run.branch), /node_modules/);
  });

  it(`Python venv: \`${VENV_RECIPE}\` installs a local wheel into the worktree's .venv`, async function () {
    try {
      execFileSync('python3', ['-c', 'import venv, ensurepip'], { stdio: 'pipe' });
    } catch (error) {
      console.log(`    skipped: python3 with venv and ensurepip is not available here (${String(error)})`);
      this.skip();
    }
    await mkdir(join(repo, 'wheels'));
    execFileSync('python3', ['-c', WHEEL_SCRIPT, join(repo, 'wheels', 'greet-1.0-py3-none-any.whl')]);
    await writeFile(join(repo, 'requirements.txt'), './wheels/greet-1.0-py3-none-any.whl\n');
    const git = await commit('.venv/\n');

    project = await open(repo, VENV_RECIPE);
    const uses = `.venv/bin/python -c "import sys, greet; assert sys.prefix.endswith('.venv') and greet.ANSWER == 42"`;
    const run = await runTask(project, uses, /Successfully installed greet-1\.0/);
    assert.ok((await lstat(join(run.worktree, '.venv', 'bin', 'python'))).isSymbolicLink());
    assert.doesNotMatch(await git('ls-tree', '-r', '--name-only', run.branch), /\.venv/);
  });
});

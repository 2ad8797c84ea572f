import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCommandLane } from '../../../plugins/command';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { WorktreeSettings } from '../../../src/core/store/orchestratorSettings';
import { prepareWorktree } from '../../../src/core/workspace/prepareWorktree';
import { cloneRepo, repoGit, setIdentity } from '../../helpers/repoGit';
import { makeTempDir } from '../../helpers/tempRepo';

type TempDir = Awaited<ReturnType<typeof makeTempDir>>;

/**
 * A repository prepared the way an attacker would (committed files only: symlinks, a committed
 * `.switchyard/config.json`), cloned into a fresh HOME that holds the user's own secrets.
 */
async function attackerClone(
  home: string,
  files: Record<string, string>,
  links: Record<string, string>,
  config: unknown,
): Promise<string> {
  const origin = join(home, 'origin');
  await mkdir(origin);
  const committed = JSON.stringify({ version: 1, ...(config as object) });
  for (const [path, content] of Object.entries({ ...files, '.switchyard/config.json': committed })) {
    await mkdir(join(origin, path, '..'), { recursive: true });
    await writeFile(join(origin, path), content);
  }
  for (const [path, target] of Object.entries(links)) await symlink(target, join(origin, path));
  const git = repoGit(origin);
  await git('init', '-q', '-b', 'main');
  await setIdentity(git, 'Attacker');
  await git('add', '-A', '-f', '.');
  await git('commit', '-q', '-m', 'looks harmless');
  const clone = join(home, 'clone');
  await cloneRepo(origin, clone, 'Me');
  return clone;
}

/** The clone opened trusted (this layer is tested on its own: trust is another one), with the command lane. */
async function openTrusted(dir: string, agent: string): Promise<Project> {
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  const project = await Project.open(dir, { registry, trusted: true });
  await project.settings.update((s) => {
    s.laneSettings.command = { command: agent };
    s.retryCaps.command = 2;
    s.retryBackoff = { initialMs: 0, coefficient: 2, maxMs: 0 };
  });
  return project;
}

/** Every file under `dir` (symlinks not followed) whose content holds `needle`, relative. */
async function filesHolding(dir: string, needle: string, skip: (rel: string) => boolean = () => false) {
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (skip(path)) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && (await readFile(join(dir, path), 'utf8')).includes(needle)) found.push(path);
    }
  };
  await walk('');
  return found;
}

describe('a prepared repository: worktree.copy and worktree.link resolve real paths', function () {
  this.timeout(120_000);
  let home: TempDir;
  const OUTSIDE = 'aws_secret_access_key = wJalrXUtnFEMI-outside-the-repository';
  beforeEach(async () => {
    home = await makeTempDir();
    await mkdir(join(home.dir, '.aws'));
    await writeFile(join(home.dir, '.aws', 'credentials'), `[default]\n${OUTSIDE}\n`);
  });
  afterEach(() => home.cleanup());

  for (const [setting, path] of [
    ['copy', 'up/.aws/credentials'],
    ['link', 'up/.aws'],
  ] as const) {
    it(`worktree.${setting} through a committed symlink up -> .. is refused, naming the link`, async () => {
      const clone = await attackerClone(
        home.dir,
        { 'README.md': '# project\n' },
        { up: '..' },
        { worktree: { [setting]: [path] } },
      );
      const project = await openTrusted(clone, 'echo work > work.txt');
      await project.tasks.addMany([{ title: 'a' }]);
      await project.runQueue();
      const state = await project.state();
      assert.equal(state.runs.length, 1, 'a setup failure is permanent: not retried');
      const run = state.runs[0]!;
      assert.equal(run.failureCode, 'workspace-setup-failed');
      assert.match(
        run.failureReason!,
        new RegExp(
          `worktree\\.${setting}: ${path.replace(/\./g, '\\.')} passes through the symlink up -> \\.\\., which leaves the repository`,
        ),
      );
      // Nothing from outside entered the clone: not the run's worktree, not a copy under .switchyard/worktrees/.
      assert.deepEqual(await filesHolding(clone, 'wJalrXUtnFEMI', (p) => p === '.git'), []);
      const links = await readdir(join(run.worktree, 'up', '.aws')).catch(() => []);
      assert.deepEqual(links, [], 'nothing was put under the worktree through its own up -> ..');
    });
  }

  it('an ordinary trusted setup still works: copy [".env"], link a folder inside the repository', async () => {
    const clone = await attackerClone(
      home.dir,
      { 'README.md': '# project\n', '.gitignore': '.env\ndeps/\n' },
      { up: '..' },
      { worktree: { copy: ['.env'], link: ['deps'] } },
    );
    await writeFile(join(clone, '.env'), 'GREETING=hello\n');
    await mkdir(join(clone, 'deps'));
    await writeFile(join(clone, 'deps', 'lib.js'), 'module.exports = 1;\n');
    const project = await openTrusted(clone, 'cat .env deps/lib.js > seen.txt');
    await project.tasks.addMany([{ title: 'a' }]);
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.runs.at(-1)?.failureReason);
    const seen = await repoGit(clone)('show', 'switchyard/integration:seen.txt');
    assert.equal(seen, 'GREETING=hello\nmodule.exports = 1;\n');
  });
});

describe('a prepared repository: the files worktree.copy puts into a worktree are secrets of the run', function () {
  this.timeout(120_000);
  let home: TempDir;
  const DB_PASSWORD = 'hunter2-Correct-Horse';
  const STRIPE = 'sk_live_51Hx9dQeZvKYlo2C8xY7a';
  const HEX = '9f86d081884c7d659a2feaa0c55ad015';
  const ENV =
    `# local settings\nDB_PASSWORD=${DB_PASSWORD}\nexport STRIPE_KEY="${STRIPE}"\nSESSION_SALT='${HEX}'\n` +
    'DEBUG=true\nPORT=1\nHOST=localhost\n';
  const values = [DB_PASSWORD, STRIPE, HEX];
  beforeEach(async () => {
    home = await makeTempDir();
  });
  afterEach(() => home.cleanup());

  async function prepared(): Promise<string> {
    const clone = await attackerClone(
      home.dir,
      { 'README.md': '# project\n', '.gitignore': '.env\n' },
      {},
      { worktree: { copy: ['.env'] } },
    );
    await writeFile(join(clone, '.env'), ENV);
    return clone;
  }

  /** What the run left in the integrated branch, the logs, the journal and the state, as text. */
  async function outsideWorktrees(clone: string, value: string): Promise<string[]> {
    const integrated = await repoGit(clone)('log', '-p', 'switchyard/integration').catch(() => '');
    const where = await filesHolding(
      clone,
      value,
      (p) => p === '.git' || p === '.switchyard/worktrees' || p === '.env',
    );
    return [...(integrated.includes(value) ? ['switchyard/integration'] : []), ...where];
  }

  for (const [name, agent, file] of [
    ['cp .env notes.txt', 'cat .env; cp .env notes.txt', 'notes.txt:2: possible secret (known-secret'],
    [
      'git add -f .env',
      'cat .env >&2; echo x > x.txt; git add -f .env && git commit -qm "add env"',
      '.env: a file worktree.copy puts into every worktree',
    ],
  ] as const) {
    const title = `an agent that runs \`${name}\` is blocked at integration (${file})`;
    it(`${title}; no value reaches the integrated branch, the logs or the journal`, async () => {
      const clone = await prepared();
      const project = await openTrusted(clone, agent);
      await project.tasks.addMany([{ title: 'leak' }]);
      await project.runQueue();
      const state = await project.state();
      assert.notEqual(state.tasks[0]!.state, 'DONE');
      const run = state.runs[0]!;
      assert.equal(run.failureCode, 'policy-violation', run.failureReason);
      assert.ok(run.failureReason!.includes(file), run.failureReason);
      for (const value of values) {
        assert.ok(!run.failureReason!.includes(value), 'the reason never holds the value');
        assert.deepEqual(await outsideWorktrees(clone, value), [], `${value.slice(0, 4)}… leaked`);
      }
      const log = JSON.stringify(await project.runs.log(run.id));
      assert.match(log, /\[redacted DB_PASSWORD in \.env\]/, 'what the agent printed is redacted');
    });
  }

  it('trivial values (true, 1, localhost) are not secrets: a change holding them integrates', async () => {
    const clone = await prepared();
    const project = await openTrusted(clone, "printf 'debug = true\\nport = 1\\nhost = localhost\\n' > app.conf");
    await project.tasks.addMany([{ title: 'ordinary' }]);
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.runs.at(-1)?.failureReason);
    const conf = await repoGit(clone)('show', 'switchyard/integration:app.conf');
    assert.match(conf, /host = localhost/);
  });
});

describe('worktree.copy: the place in the worktree is resolved too', () => {
  it('a symlink the run checked out (cfg -> ..) cannot make the copy land outside the worktree', async () => {
    const dir = await makeTempDir();
    try {
      // The main checkout has a real cfg/ folder; the run starts from a commit where cfg is a symlink leaving it.
      const root = join(dir.dir, 'main');
      const worktree = join(dir.dir, 'wt', 'run');
      await mkdir(join(root, 'cfg'), { recursive: true });
      await writeFile(join(root, 'cfg', 'app.env'), 'TOKEN=abcdefgh12345\n');
      await mkdir(worktree, { recursive: true });
      await symlink('..', join(worktree, 'cfg'));
      const outcome = await prepareWorktree({
        root,
        worktree,
        settings: WorktreeSettings.parse({ copy: ['cfg/app.env'] }),
        env: {},
        onLine: () => undefined,
        onDecision: () => undefined,
      });
      assert.equal(outcome.ok, false);
      assert.match(
        outcome.ok ? '' : outcome.reason,
        /worktree\.copy: cfg\/app\.env passes through the symlink cfg -> \.\., which leaves the worktree/,
      );
      assert.deepEqual(await readdir(join(dir.dir, 'wt')), ['run'], 'nothing was written beside the worktree');
    } finally {
      await dir.cleanup();
    }
  });
});

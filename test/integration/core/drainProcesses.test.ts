import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { testCliBundle } from '../guards/testCli';

const run = promisify(execFile);
const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const TARGET = 'switchyard/integration';

interface Spawn {
  command: string;
  args: string[];
}

/** A fresh repository with one commit, its command lane set to `command`, and `tasks` tasks queued. */
async function project(dir: string, name: string, command: string, tasks: number): Promise<string> {
  const repo = join(dir, name);
  const cli = await testCliBundle();
  await run('git', ['init', '-q', '-b', 'main', repo], { env: ENV });
  const git = (...args: string[]) => run('git', args, { cwd: repo, env: ENV });
  await git('config', 'user.name', 'Test');
  await git('config', 'user.email', 'test@localhost');
  await writeFile(join(repo, 'README.md'), '# test\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial');
  const sy = (...args: string[]) => run(process.execPath, [cli, ...args], { cwd: repo, env: ENV });
  await sy('lanes', 'set', 'command', `command=${command}`);
  await sy('default-lane', 'command');
  const list = Array.from({ length: tasks }, (_, i) => ({ title: `t ${i + 1}` }));
  await writeFile(join(dir, `${name}.json`), JSON.stringify(list));
  await sy('task', 'add', '--from', join(dir, `${name}.json`));
  return repo;
}

/** `switchyard run` with every child process it starts logged (bench/spawnCounter.cjs). */
async function drain(repo: string, log: string, ...args: string[]): Promise<Spawn[]> {
  await writeFile(log, '');
  await run(process.execPath, [await testCliBundle(), 'run', ...args], {
    cwd: repo,
    env: {
      ...ENV,
      SWITCHYARD_BENCH_SPAWN_LOG: log,
      NODE_OPTIONS: `--require ${resolve('bench/spawnCounter.cjs')}`,
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  return (await readFile(log, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Spawn);
}

const gitSub = (s: Spawn): string | undefined =>
  s.command === 'git' ? s.args.filter((a, i) => a !== '-c' && s.args[i - 1] !== '-c')[0] : undefined;
const count = (spawns: Spawn[], sub: string, also: (s: Spawn) => boolean = () => true): number =>
  spawns.filter((s) => gitSub(s) === sub && also(s)).length;

describe('child processes of a drain (the real CLI, real git)', function () {
  this.timeout(180_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-procs-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('starts at most 8 processes per task, one diff per run, and leaves no worktree record behind', async () => {
    const lane = 'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"';
    const one = await project(dir, 'one', lane, 1);
    const ten = await project(dir, 'ten', lane, 10);
    const base = await drain(one, join(dir, 'one.log'));
    const spawns = await drain(ten, join(dir, 'ten.log'));
    // What each task adds, whatever a drain starts once (configuration reads, the hook's paths, one prune).
    const perTask = (spawns.length - base.length) / 9;
    console.log(
      `      ${spawns.length} processes for 10 tasks, ${base.length} for 1: ${perTask.toFixed(2)} per added task`,
    );
    const kinds = new Map<string, number>();
    for (const s of spawns) kinds.set(gitSub(s) ?? s.command, (kinds.get(gitSub(s) ?? s.command) ?? 0) + 1);
    const shown = JSON.stringify(Object.fromEntries(kinds));
    assert.ok(
      perTask <= 8,
      `${perTask} processes per task (${spawns.length} for 10 tasks, ${base.length} for 1): ${shown}`,
    );
    // What a drain starts once (the supervisor, configuration reads, the hook's paths, one prune) stays small.
    assert.ok(base.length - perTask <= 12, `${base.length} processes for 1 task: ${shown}`);
    assert.equal(count(spawns, 'diff'), 10, `one diff per run: ${shown}`);
    assert.ok(count(spawns, 'for-each-ref') <= 1, `the target's tip is read once per drain: ${shown}`);
    assert.equal(
      count(spawns, 'rev-parse', (s) => s.args.includes('--verify')),
      0,
      `claims read refs: ${shown}`,
    );
    assert.equal(
      count(spawns, 'worktree', (s) => s.args.includes('remove')),
      0,
      shown,
    );
    assert.equal(count(spawns, 'update-ref'), 1, `one long-lived update-ref moves the target: ${shown}`);
    // git's automatic maintenance after each commit (a process git starts itself) is skipped; the drain runs it once.
    assert.equal(
      count(spawns, 'commit', (s) => s.args.includes('maintenance.auto=false')),
      10,
      `run commits skip git's automatic maintenance: ${shown}`,
    );
    assert.deepEqual(
      spawns.filter((s) => gitSub(s) === 'maintenance').map((s) => s.args.slice(-3)),
      [['run', '--auto', '--quiet']],
      `one automatic maintenance at the drain's end: ${shown}`,
    );

    const git = async (...args: string[]) => (await run('git', args, { cwd: ten, env: ENV })).stdout;
    const worktrees = await git('worktree', 'list', '--porcelain');
    assert.deepEqual(
      worktrees.split('\n').filter((l) => l.startsWith('worktree ')),
      [`worktree ${await git('rev-parse', '--show-toplevel').then((t) => t.trim())}`],
      worktrees,
    );
    const prune = await run('git', ['worktree', 'prune', '--dry-run', '-v'], { cwd: ten, env: ENV });
    assert.equal(prune.stdout + prune.stderr, '', 'nothing left for git to prune');
    const branches = (await git('for-each-ref', '--format=%(refname:short)', 'refs/heads/switchyard/'))
      .split('\n')
      .filter((b) => /^switchyard\/t\d+\/1$/.test(b));
    assert.equal(branches.length, 10, 'every run keeps its branch');
    const files = (await git('ls-tree', '--name-only', TARGET)).split('\n').filter((f) => f.startsWith('f-'));
    assert.equal(files.length, 10, 'every change is on the target branch');
    const reflog = (await git('reflog', 'show', '--format=%gs', TARGET)).trim().split('\n');
    assert.deepEqual(reflog, Array(10).fill('switchyard: integrate'), 'each move is in the reflog, as before');
  });

  it('notices a target branch moved by someone else (a real commit) and merges on its new tip', async () => {
    // The second task's lane commits on the target branch itself, as another person or tool would, between the
    // first task's integration and its own.
    const outside = [
      'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"',
      `if [ "$SWITCHYARD_TASK_ID" = t2 ]; then`,
      // t2's lane may start while t1 is still being merged (t1 left RUNNING): wait until t1's merge made the branch.
      `  i=0; until git rev-parse --verify --quiet refs/heads/${TARGET} >/dev/null; do`,
      '    i=$((i+1)); [ $i -gt 300 ] && exit 1; sleep 0.1',
      '  done',
      `  t=$(git rev-parse --verify ${TARGET}) && git read-tree --index-output=/tmp/sy-idx-$$ $t || exit 1`,
      `  echo outside > /tmp/sy-blob-$$ && b=$(git hash-object -w /tmp/sy-blob-$$)`,
      `  GIT_INDEX_FILE=/tmp/sy-idx-$$ git update-index --add --cacheinfo 100644,$b,outside.txt`,
      `  tree=$(GIT_INDEX_FILE=/tmp/sy-idx-$$ git write-tree) && rm -f /tmp/sy-idx-$$ /tmp/sy-blob-$$`,
      `  c=$(git commit-tree $tree -p $t -m outside) && git update-ref refs/heads/${TARGET} $c $t`,
      'fi',
    ].join('\n');
    const repo = await project(dir, 'moved', outside, 3);
    await drain(repo, join(dir, 'moved.log'), '--concurrency', '1');
    const git = async (...args: string[]) => (await run('git', args, { cwd: repo, env: ENV })).stdout.trim();
    const outsideCommit = await git('log', '--format=%H', '--grep=^outside$', TARGET);
    assert.match(outsideCommit, /^[0-9a-f]{40}$/, 'the outside commit is on the target branch');
    // One commit per task, its only parent the target's tip (no merge commit).
    const t2Commit = await git('log', '--format=%H %P', '--grep=^Switchyard task t2, run t2\\.1$', TARGET);
    const [, ...parents] = t2Commit.split(' ');
    assert.deepEqual(parents, [outsideCommit], "t2's commit is made on the moved tip, its only parent");
    const tree = (await git('ls-tree', '--name-only', TARGET)).split('\n');
    for (const f of ['outside.txt', 'f-t1.txt', 'f-t2.txt', 'f-t3.txt']) assert.ok(tree.includes(f), `${f}: ${tree}`);
    const events = await readFile(join(repo, '.switchyard', 'runs', 't2.1', 'events.jsonl'), 'utf8').catch(() => '');
    assert.match(events, /moved while t2\.1 was being merged; merging again/);
  });
  it('reads the tip afresh before reporting a conflict computed on the tip it remembered', async () => {
    // t1 and t2 start together; t1 adds c.txt and is merged. Then t2's lane, adding its own c.txt, has someone else
    // take t1's c.txt off the target: t2 conflicts with the tip this process remembers, not with the real one.
    const lane = [
      'if [ "$SWITCHYARD_TASK_ID" = t1 ]; then echo one > c.txt; exit 0; fi',
      'echo two > c.txt',
      `i=0; until git cat-file -e refs/heads/${TARGET}:c.txt 2>/dev/null; do`,
      '  i=$((i+1)); [ $i -gt 300 ] && exit 1; sleep 0.1',
      'done',
      `t=$(git rev-parse ${TARGET}) && git read-tree --index-output=/tmp/sy-idx-$$ $t`,
      'GIT_INDEX_FILE=/tmp/sy-idx-$$ git update-index --force-remove c.txt',
      'tree=$(GIT_INDEX_FILE=/tmp/sy-idx-$$ git write-tree) && rm -f /tmp/sy-idx-$$',
      `c=$(git commit-tree $tree -p $t -m "take c.txt off") && git update-ref refs/heads/${TARGET} $c $t`,
    ].join('\n');
    const repo = await project(dir, 'conflict', lane, 2);
    await drain(repo, join(dir, 'conflict.log'), '--concurrency', '2');
    const git = async (...args: string[]) => (await run('git', args, { cwd: repo, env: ENV })).stdout.trim();
    const removal = await git('log', '--format=%H', '--grep=^take c.txt off$', TARGET);
    assert.match(removal, /^[0-9a-f]{40}$/, 'the outside commit is on the target branch');
    const t2Commit = await git('log', '--format=%H %P', '--grep=^Switchyard task t2, run t2\\.1$', TARGET);
    const [, ...parents] = t2Commit.split(' ');
    assert.deepEqual(parents, [removal], 't2 is committed on the real tip (its only parent), without a conflict');
    assert.equal(await git('show', `${TARGET}:c.txt`), 'two');
  });
});

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

function cli(...args: string[]) {
  return runCli(args);
}

describe('switchyard CLI', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('lists lanes as a table and as JSON', async () => {
    const text = await cli('lanes');
    assert.equal(text.code, 0);
    assert.match(text.out, /^LANE\s+READY\s+KIND/m);
    assert.match(text.out, /command\s+no\s+command\s+1\.0\.0/);
    assert.match(text.out, /command: lane "command" needs the "command" setting/);
    const json = await cli('lanes', '--json');
    assert.ok(
      (JSON.parse(json.out) as { id: string }[]).some((l) => l.id === 'command'),
      json.out,
    );
  });

  it('adds tasks, runs the queue, shows status and diffs', async () => {
    assert.equal((await cli('lanes', 'set', 'command', 'command=echo changed > out.txt', '--repo', repo.dir)).code, 0);
    const added = await cli(
      'task',
      'add',
      '--title',
      'Make out.txt',
      '--spec',
      'do it',
      '--file',
      'out.txt',
      '--repo',
      repo.dir,
    );
    assert.equal(added.code, 0, added.err);
    assert.match(added.out, /added t1 Make out\.txt \(READY\)/);
    const run = await cli('run', '--repo', repo.dir);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /t1 DONE/);
    const status = await cli('status', '--repo', repo.dir);
    assert.match(status.out, /t1\s+DONE\s+command\s+1\s+Make out\.txt/);
    const json = JSON.parse((await cli('status', '--json', '--repo', repo.dir)).out);
    assert.equal(json.runs[0].state, 'SUCCEEDED');
    assert.match(
      status.out,
      /Guards \(latest verdict each; counts over all \d+ verdicts\):\n( {2}.*\n)* {2}conflict-markers pass \(conflict-/,
      'guard verdicts are shown',
    );
    assert.equal(json.guards.find((g: { guard: string }) => g.guard === 'secret-scan')?.last.verdict, 'pass');
    const diff = await cli('diff', 't1.1', '--repo', repo.dir);
    assert.match(diff.out, /\+changed/);
    const log = await cli('log', 't1.1', '--repo', repo.dir);
    assert.match(log.out, /decision\s+task t1 DONE/);
  });

  it('exits 1 and prints the real failure when a task fails', async () => {
    await cli('lanes', 'set', 'command', 'command=echo broken >&2; exit 7', '--repo', repo.dir);
    assert.match((await cli('lanes', 'cap', 'command', '3', '--repo', repo.dir)).out, /at most 3 attempt/);
    assert.match((await cli('lanes', 'cap', 'command', 'lots', '--repo', repo.dir)).err, /whole number from 1 to 20/);
    await cli('task', 'add', '--title', 'fails', '--repo', repo.dir);
    const run = await cli('run', '--repo', repo.dir);
    assert.equal(run.code, 1);
    assert.match(run.out, /t1 FAILED: .*exit code 7; stderr: broken \(failed 3 attempts, the lane's limit\)/);
  });

  it('names the field of a malformed task file and stores nothing', async () => {
    const file = join(repo.dir, 'tasks.json');
    await writeFile(file, JSON.stringify({ tasks: [{ title: 'fine' }, { title: 'bad', priority: 'high' }] }));
    const bad = await cli('task', 'add', '--from', file, '--repo', repo.dir);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /tasks\.json #2: priority: .*number/);
    await writeFile(file, '{ "title": "x", ');
    assert.match((await cli('task', 'add', '--from', file, '--repo', repo.dir)).err, /tasks\.json: .*JSON/);
    await writeFile(file, JSON.stringify({ title: 'x', colour: 'red' }));
    assert.match((await cli('task', 'add', '--from', file, '--repo', repo.dir)).err, /Unrecognized key: "colour"/);
    const status = JSON.parse((await cli('status', '--json', '--repo', repo.dir)).out);
    assert.deepEqual(status.tasks, []);
  });

  it('lists the available lanes for an unknown lane', async () => {
    const r = await cli('task', 'add', '--title', 'x', '--lane', 'gpt-9', '--repo', repo.dir);
    assert.equal(r.code, 1);
    assert.match(r.err, /unknown lane "gpt-9"; registered lanes: command/);
    assert.match((await cli('default-lane', 'nope', '--repo', repo.dir)).err, /unknown lane "nope"/);
  });

  it('says clearly when the folder is not a git repository', async () => {
    const plain = await makeTempDir();
    try {
      const r = await cli('status', '--repo', plain.dir);
      assert.equal(r.code, 1);
      assert.match(r.err, /is not inside a git repository/);
    } finally {
      await plain.cleanup();
    }
  });

  it('reports a corrupt state file without touching it', async () => {
    await cli('task', 'add', '--title', 'keep me', '--repo', repo.dir);
    const file = join(repo.dir, '.switchyard', 'state.json');
    await writeFile(file, '{"version": 1, "tasks": [');
    const r = await cli('task', 'add', '--title', 'another', '--repo', repo.dir);
    assert.equal(r.code, 1);
    assert.ok(r.err.includes(file));
    assert.equal(await readFile(file, 'utf8'), '{"version": 1, "tasks": [');
  });

  it('usage errors exit 2 and show the usage', async () => {
    const unknown = await cli('frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown command "frobnicate"/);
    const missing = await cli('task', 'add', '--repo', repo.dir);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /needs --title/);
    assert.match((await cli('diff', 't9.9', '--repo', repo.dir)).err, /unknown run "t9\.9"/);
  });

  it('cancels and retries tasks, and cleans worktrees', async () => {
    await cli('task', 'add', '--title', 'x', '--repo', repo.dir);
    assert.match((await cli('cancel', 't1', '--repo', repo.dir)).out, /t1 CANCELED/);
    assert.match((await cli('retry', 't1', '--repo', repo.dir)).out, /t1 READY/);
    assert.match((await cli('retry', 't1', '--repo', repo.dir)).err, /only FAILED or CANCELED tasks can be retried/);
    // A failed run keeps its worktree (an integrated run's is removed at once).
    await cli('lanes', 'set', 'command', 'command=echo x > x.txt; exit 1', '--repo', repo.dir);
    await cli('run', '--repo', repo.dir);
    assert.match((await cli('worktrees', '--repo', repo.dir)).out, /switchyard\/t1\/1/);
    assert.match((await cli('worktrees', '--clean', '--repo', repo.dir)).out, /removed .*t1\.1/);
  });

  it('runs the demo to DONE for both tasks', async () => {
    const r = await cli('demo');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /t1\s+DONE/);
    assert.match(r.out, /t2\s+DONE/);
    assert.match(r.out, /\+Hello from Switchyard/);
  });
});

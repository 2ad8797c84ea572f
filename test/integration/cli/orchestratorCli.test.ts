import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

function cli(...args: string[]) {
  return runCli(args);
}

describe('switchyard CLI: report, experiment, status of the pipeline', function () {
  this.timeout(60_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('report explains why each task started, waited, was retried; --trace and --json give the raw decisions', async () => {
    await cli(
      'lanes',
      'set',
      'command',
      'command=echo "$SWITCHYARD_TASK_ID" >> "$SWITCHYARD_TASK_ID.txt"',
      '--repo',
      repo.dir,
    );
    const file = join(repo.dir, '..', `${repo.dir.split('/').pop()}-tasks.json`);
    await writeFile(
      file,
      JSON.stringify({
        tasks: [
          { title: 'base', key: 'base' },
          { title: 'needs two', key: 'two', dependsOn: ['base'], acceptance: 'test $(wc -l < t2.txt) -ge 2' },
        ],
      }),
    );
    assert.equal((await cli('task', 'add', '--from', file, '--repo', repo.dir)).code, 0);
    const run = await cli('run', '--repo', repo.dir);
    assert.equal(run.code, 0, run.out + run.err);
    const report = await cli('report', '--repo', repo.dir);
    assert.equal(report.code, 0);
    assert.match(report.out, /^Pipeline: RUNNING 0\/4 · VERIFYING 0\/2 · REVIEWING 0\/3 · INTEGRATING 0\/1/);
    assert.match(
      report.out,
      /t1 · base — DONE on lane command, 1 run\(s\); merged into switchyard\/integration as [0-9a-f]{12}/,
    );
    assert.match(report.out, /waited\s+task t2 waits on t1 \(not DONE\)/);
    assert.match(
      report.out,
      /started\s+t2\.1: run t2\.1 started: task t2 on lane command, attempt 1; picked now: score/,
    );
    assert.match(report.out, /retried\s+t2\.1: retrying task t2 \(attempt 2 of 2\): the acceptance command failed/);
    assert.match(report.out, /merged\s+t2\.2: merged switchyard\/t2\/2 into switchyard\/integration/);
    const trace = await cli('report', '--trace', '--repo', repo.dir);
    assert.match(
      trace.out,
      /\d{4}-\d\d-\d\dT[\d:.]+Z\s+other\s+t2\.2: worktree .* \(the commit of t2\.1: this attempt fixes it\)/,
    );
    const json = JSON.parse((await cli('report', '--json', '--repo', repo.dir)).out);
    assert.deepEqual(
      json.tasks.map((t: { id: string; state: string }) => `${t.id}:${t.state}`),
      ['t1:DONE', 't2:DONE'],
    );
    const status = await cli('status', '--repo', repo.dir);
    assert.match(status.out, /stages: RUNNING 0\/4 · VERIFYING 0\/2 · REVIEWING 0\/3 · INTEGRATING 0\/1/);
  });

  it('experiment runs the same DAG at each concurrency in a fresh repository and prints a table', async () => {
    const dag = join(repo.dir, '..', `${repo.dir.split('/').pop()}-dag.json`);
    await writeFile(
      dag,
      JSON.stringify({
        command: 'sleep 0.2; echo "$SWITCHYARD_TASK_TITLE" > "$SWITCHYARD_TASK_ID.txt"',
        tasks: [
          { title: 'a', key: 'a' },
          { title: 'b', key: 'b' },
          { title: 'c', dependsOn: ['a', 'b'] },
        ],
      }),
    );
    const r = await cli('experiment', '--concurrency', '1,2', dag);
    assert.equal(r.code, 0, r.err);
    const [header, one, two] = r.out.split('\n');
    assert.match(
      header!,
      /^CONCURRENCY\s+WALL\s+BATCHES\s+TASKS\s+DONE\s+ATTEMPTS\s+RETRIES\s+MAX RUNNING\s+MAX VERIFYING\s+MAX REVIEWING\s+MAX INTEGRATING$/,
    );
    assert.match(one!, /^1\s+[\d.]+ s\s+3\s+3\s+3\s+3\s+0\s+1\s+1\s+0\s+1$/);
    assert.match(two!, /^2\s+[\d.]+ s\s+2\s+3\s+3\s+3\s+0\s+2\s+/);
    assert.match(
      (await cli('experiment', '--concurrency', '0', dag)).err,
      /--concurrency takes whole numbers from 1 to 64/,
    );
    await writeFile(
      dag,
      JSON.stringify({
        tasks: [
          { title: 'x', key: 'x', dependsOn: ['y'] },
          { title: 'y', key: 'y', dependsOn: ['x'] },
        ],
      }),
    );
    assert.match((await cli('experiment', dag)).err, /dependency cycle: x → y → x/);
  });

  it('an urgent flag from the command line needs all three parts', async () => {
    const missing = await cli('task', 'add', '--title', 'hotfix', '--urgent-owner', 'ana', '--repo', repo.dir);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /urgent\.reason: urgent\.reason is required/);
    const ok = await cli(
      'task',
      'add',
      '--title',
      'hotfix',
      '--urgent-owner',
      'ana',
      '--urgent-reason',
      'prod is down',
      '--urgent-until',
      new Date(Date.now() + 3_600_000).toISOString(),
      '--repo',
      repo.dir,
    );
    assert.equal(ok.code, 0, ok.err);
  });
});

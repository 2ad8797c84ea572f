import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { isSwitchyardError } from '../../../src/core/errors';
import { createCommandLane } from '../../../plugins/command';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';
import { scriptedLane } from '../../helpers/fakeLanes';
import { until } from '../../helpers/until';
import { editState } from '../../helpers/editState';

async function openProject(dir: string, extra: Parameters<LaneRegistry['register']>[0][] = []) {
  const registry = new LaneRegistry();
  registry.register(createCommandLane());
  for (const lane of extra) registry.register(lane);
  return Project.open(dir, {
    registry,
    parentEnv: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      AWS_PROFILE: 'prod-admin',
      GITHUB_TOKEN: 'ghp_secret',
    },
  });
}

describe('Project (queue, runs, retries) on a real git repository', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('runs a command-lane task to DONE: spec on stdin, allowlisted env, diff captured, output logged', async () => {
    const project = await openProject(repo.dir);
    await project.settings.update((s) => {
      s.laneSettings.command = {
        command:
          'cat > from-stdin.txt; printf "%s|%s|%s|%s" "$SWITCHYARD_TASK_ID" "$SWITCHYARD_TASK_FILES" "${AWS_PROFILE:-none}" "${GITHUB_TOKEN:-none}" > env.txt; echo working',
      };
    });
    const task = await project.tasks.add({ title: 'stdin and env', spec: 'the instruction', files: ['src/a.txt'] });
    const summary = await project.runQueue();
    assert.equal(summary.runs.length, 1);
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE');
    const run = state.runs[0]!;
    assert.equal(run.state, 'SUCCEEDED');
    assert.equal(run.branch, `switchyard/${task.id}/1`);
    const diff = await project.runs.diff(run.id);
    assert.match(diff, /\+the instruction/);
    assert.match(diff, /\+t1\|src\/a\.txt\|none\|none/, 'AWS_PROFILE and GITHUB_TOKEN are not inherited');
    const log = await project.runs.log(run.id);
    assert.ok(
      log.some((l) => l.type === 'lane' && JSON.stringify(l.event).includes('working')),
      'stdout is streamed as events',
    );
    assert.equal(await repo.git('status', '--porcelain'), '', 'the user working tree is untouched');
  });

  it('a lane that exits non-zero is retried up to its cap, then fails with the real last error', async () => {
    const project = await openProject(repo.dir);
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo "pytest: 1 failed in tests/test_user.py::test_create" >&2; exit 3' };
    });
    await project.tasks.add({ title: 'always fails' });
    await project.runQueue();
    const state = await project.state();
    const task = state.tasks[0]!;
    assert.equal(task.state, 'FAILED');
    assert.equal(task.attempts, 2);
    assert.match(
      task.failureReason!,
      // line-length: data-table, the failure reason quoted whole, backticks included
      /^`echo .*` failed with exit code 3; stderr: pytest: 1 failed in tests\/test_user\.py::test_create \(failed 2 attempts, the lane's limit\)$/,
      // line-length: end
    );
    const [first, second] = state.runs;
    assert.equal(first!.state, 'FAILED');
    assert.equal(second!.attempt, 2);
    assert.equal(second!.parentRunId, first!.id);
    assert.match(second!.retryReason!, /exit code 3/);
    assert.notEqual(first!.worktree, second!.worktree, 'each attempt has a fresh worktree');
  });

  it("a task retried by the user gets fresh branches and never reuses an earlier attempt's", async () => {
    const project = await openProject(repo.dir);
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo $SWITCHYARD_RUN_ID >> runs.txt; test -f ok' };
    });
    await project.tasks.add({ title: 'flaky' });
    await project.runQueue();
    assert.equal((await project.state()).tasks[0]!.state, 'FAILED');
    await project.tasks.retry('t1');
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo $SWITCHYARD_RUN_ID >> runs.txt' };
    });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE');
    assert.deepEqual(
      state.runs.map((r) => `${r.id}@${r.branch}#${r.attempt}`),
      ['t1.1@switchyard/t1/1#1', 't1.2@switchyard/t1/2#2', 't1.3@switchyard/t1/3#3'],
      'attempt numbers go on after the retry',
    );
    assert.match(await project.runs.diff('t1.1'), /\+t1\.1/, "the first attempt's work is still on its branch");
  });

  it('a lane that hangs is aborted at its timeout and its process group is killed', async () => {
    const project = await openProject(repo.dir);
    const pidFile = join(repo.dir, 'hang.pid');
    await project.settings.update((s) => {
      s.laneSettings.command = { command: `sh -c 'echo $$ > ${pidFile}; sleep 30'`, timeoutMs: 400 };
      s.retryCaps.command = 1;
    });
    await project.tasks.add({ title: 'hangs' });
    const started = Date.now();
    await project.runQueue();
    assert.ok(Date.now() - started < 8_000, 'did not wait for the hang');
    const task = (await project.state()).tasks[0]!;
    assert.equal(task.state, 'FAILED');
    assert.match(task.failureReason!, /did not finish within 400 ms and was aborted/);
    const pid = Number(await readFile(pidFile, 'utf8'));
    await until('the process to be gone', async () => !isAlive(pid), 3_000).catch(() => undefined);
    assert.equal(isAlive(pid), false, 'the hung process is gone');
  });

  it('an acceptance failure starts a fix attempt on top of the failed one, with the output as feedback', async () => {
    const project = await openProject(repo.dir);
    await project.settings.update((s) => {
      s.laneSettings.command = {
        command: 'echo attempt >> count.txt; printf "%s" "${SWITCHYARD_FEEDBACK:-none}" > feedback.txt',
      };
    });
    await project.tasks.add({
      title: 'verify',
      acceptance: 'echo "expected 2 lines" && test $(wc -l < count.txt) -ge 2',
    });
    await project.runQueue();
    const state = await project.state();
    // Behaviour change (orchestrator): a fix attempt starts from the failed attempt's commit, so the second attempt has
    // 2 lines.
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    const [first, second] = state.runs;
    assert.equal(first!.failureCode, 'verify-failed');
    assert.match(first!.failureReason!, /acceptance command `.*` exited with code 1: expected 2 lines/);
    assert.deepEqual(second!.resumeFrom, {
      runId: first!.id,
      start: 'earlier-work',
      workBranch: first!.branch,
      commit: first!.headCommit,
    });
    assert.match(second!.feedback!, /expected 2 lines/);
    assert.match(await project.runs.diff(second!.id), /\+attempt\n\+attempt/);
    assert.match(
      await project.runs.diff(second!.id),
      /expected 2 lines/,
      'the lane saw the feedback in SWITCHYARD_FEEDBACK',
    );
  });

  it('an acceptance command that keeps failing ends with the real last error', async () => {
    const project = await openProject(repo.dir);
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo attempt >> count.txt' };
    });
    await project.tasks.add({
      title: 'verify',
      acceptance: 'echo "expected 5 lines" && test $(wc -l < count.txt) -ge 5',
    });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'FAILED');
    assert.match(
      state.tasks[0]!.failureReason!,
      // line-length: data-table, the failure reason quoted whole, backticks included
      /^acceptance command `.*` exited with code 1: expected 5 lines.*\(failed 2 attempts, the lane's limit\)$/s,
      // line-length: end
    );
  });

  it('refuses an unknown lane at task creation, listing lanes, and stores nothing', async () => {
    const project = await openProject(repo.dir);
    await assert.rejects(
      project.tasks.add({ title: 'x', lane: 'nope' }),
      /unknown lane "nope"; registered lanes: command/,
    );
    await assert.rejects(
      project.tasks.addMany([{ title: 'ok' }, { title: '' }]),
      /task #2: title: a task needs a title/,
    );
    assert.deepEqual((await project.state()).tasks, []);
  });

  it('fails a task routed to a lane that is no longer registered, with a clear reason', async () => {
    const gone = scriptedLane('gone', async () => ({ status: 'succeeded' }));
    const first = await openProject(repo.dir, [gone]);
    await first.tasks.add({ title: 'orphan', lane: 'gone' });
    const second = await openProject(repo.dir);
    await second.runQueue();
    const task = (await second.state()).tasks[0]!;
    assert.equal(task.state, 'FAILED');
    assert.equal(task.failureReason, 'lane "gone" is not registered; registered lanes: command');
  });

  it('contains a lane that throws: its task fails, other lanes go on', async () => {
    const bad = scriptedLane('bad', async () => {
      throw new Error('kaboom');
    });
    const good = scriptedLane('good', async (input) => {
      await writeFile(join(input.workspaceDir, 'good.txt'), 'ok\n');
      return { status: 'succeeded' };
    });
    const project = await openProject(repo.dir, [bad, good]);
    await project.tasks.addMany([
      { title: 'bad', lane: 'bad' },
      { title: 'good', lane: 'good' },
    ]);
    await project.runQueue();
    const [t1, t2] = (await project.state()).tasks;
    assert.equal(t1!.state, 'FAILED');
    assert.match(t1!.failureReason!, /lane "bad" threw: kaboom/);
    assert.equal(t2!.state, 'DONE');
  });

  it('a canceled task never integrates a late result: the run is kept as STALE_RESULT', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = scriptedLane('slow', async (input) => {
      await gate;
      await writeFile(join(input.workspaceDir, 'late.txt'), 'late\n');
      return { status: 'succeeded' };
    });
    const project = await openProject(repo.dir, [slow]);
    const task = await project.tasks.add({ title: 'cancel me', lane: 'slow' });
    const draining = project.runQueue();
    await until('the task to be RUNNING', async () => (await project.state()).tasks[0]!.state === 'RUNNING', 5_000);
    await project.tasks.cancel(task.id);
    // The lane delivers only now, after the cancel is recorded.
    release();
    await draining;
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'CANCELED');
    assert.equal(state.runs[0]!.state, 'STALE_RESULT');
    assert.match(await project.runs.diff(state.runs[0]!.id), /late\.txt/, 'the late result is kept for inspection');
  });

  it('two schedulers on one repository never run the same task twice', async () => {
    const counts = new Map<string, number>();
    const counting = () =>
      scriptedLane('count', async (input) => {
        counts.set(input.task.id, (counts.get(input.task.id) ?? 0) + 1);
        // The lane's work: long enough that the two schedulers' drains overlap.
        await new Promise((r) => setTimeout(r, 20));
        return { status: 'succeeded' };
      });
    const a = await openProject(repo.dir, [counting()]);
    const b = await openProject(repo.dir, [counting()]);
    await a.tasks.addMany(Array.from({ length: 8 }, (_, i) => ({ title: `task ${i}`, lane: 'count' })));
    await Promise.all([a.runQueue(), b.runQueue()]);
    assert.equal(counts.size, 8);
    assert.ok(
      [...counts.values()].every((n) => n === 1),
      JSON.stringify([...counts]),
    );
    assert.ok((await a.state()).tasks.every((t) => t.state === 'DONE'));
  });

  it('runs dependencies first, then by priority, and reports tasks left waiting', async () => {
    const order: string[] = [];
    const lane = scriptedLane('seq', async (input) => {
      order.push(input.task.title);
      return { status: input.task.title === 'fails' ? 'failed' : 'succeeded', failureReason: 'no' };
    });
    const project = await openProject(repo.dir, [lane]);
    const [a] = await project.tasks.addMany([{ title: 'first', lane: 'seq' }]);
    const [f] = await project.tasks.addMany([{ title: 'fails', lane: 'seq' }]);
    await project.tasks.addMany([
      { title: 'second', lane: 'seq', dependsOn: [a!.id], priority: 90 },
      { title: 'blocked', lane: 'seq', dependsOn: [f!.id] },
    ]);
    const summary = await project.runQueue({ concurrency: 1 });
    assert.deepEqual(
      order,
      ['first', 'second', 'fails'],
      'second becomes ready once first is DONE and outranks fails by priority',
    );
    assert.deepEqual(summary.waiting, [{ taskId: 't4', on: ['t2'] }]);
    await assert.rejects(
      project.tasks.add({ title: 'x', dependsOn: ['t99'] }),
      /dependsOn names unknown task\(s\) t99/,
    );
  });

  it('recovers a run whose owning process died and runs the task again', async () => {
    const lane = scriptedLane('ok', async () => ({ status: 'succeeded' }), { defaultRetryCap: 2 });
    const project = await openProject(repo.dir, [lane]);
    await project.tasks.add({ title: 'interrupted', lane: 'ok' });
    await editState(project.root, (s) => {
      const task = s.tasks[0]!;
      task.state = 'RUNNING';
      task.attempts = 1;
      task.lastRunId = 't1.1';
      s.runs.push({
        id: 't1.1',
        taskId: 't1',
        lane: 'ok',
        attempt: 1,
        generation: 0,
        state: 'RUNNING',
        branch: 'switchyard/t1/1',
        worktree: join(repo.dir, '.switchyard/worktrees/t1.1'),
        baseCommit: task.baseCommit,
        startedAt: new Date().toISOString(),
        owner: `${hostname()}/999999/dead`,
      });
    });
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.runs[0]!.state, 'FAILED');
    assert.equal(state.runs[0]!.failureCode, 'interrupted');
    assert.equal(state.runs[1]!.parentRunId, 't1.1');
    assert.equal(state.tasks[0]!.state, 'DONE');
  });

  it('cleans worktrees but keeps branches and diffs', async () => {
    const project = await openProject(repo.dir);
    // A failed run keeps its worktree (an integrated run's is removed at once).
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo x > x.txt; exit 1' };
      s.retryCaps.command = 1;
    });
    await project.tasks.add({ title: 'x' });
    await project.runQueue();
    assert.equal((await project.worktrees.list()).length, 1);
    assert.equal((await project.worktrees.clean()).length, 1);
    assert.equal((await project.worktrees.list()).length, 0);
    assert.match(await project.runs.diff('t1.1'), /x\.txt/);
  });

  it('is a clear error outside a git repository', async () => {
    const plain = await makeTempDir();
    try {
      await assert.rejects(openProject(plain.dir), (e: unknown) => isSwitchyardError(e, 'not-a-git-repo'));
    } finally {
      await plain.cleanup();
    }
  });
});

/** Alive and not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  let stat = '';
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z/.test(stat);
}

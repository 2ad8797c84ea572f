import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { buildCliBundle } from '../../helpers/cliBundle';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';
import { isSupervisorCommandLine } from '../../helpers/supervisorProcess';
import { until } from '../../helpers/until';
import { Project } from '../../../src/core/project/project';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { killRecordedGroups, liveGroupMembers, readProcStat } from '../../../src/core/process/killRecordedGroups';
import { FAKE_KEYS } from '../../helpers/cliLaneProject';
import { standIn } from '../../helpers/cliStandIns';

/**
 * No process of a run outlives the Switchyard process that owns it: real
 * `switchyard run` processes, real SIGKILLs, and a command lane whose shell
 * forks a background process and then sleeps. Each writes its pid to a file
 * outside the worktree; liveness is read from /proc/<pid>/stat (proc(5)), so
 * a zombie waiting for PID 1 to reap it counts as dead.
 */
const alive = (pid: number): boolean => {
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
};
const pidIn = (file: string): number => Number(readFileSync(file, 'utf8').trim());
/** The live processes (of this user) whose working folder is `dir` or under it, from /proc/<pid>/cwd. */
const processesIn = (dir: string): string[] => {
  const real = existsSync(dir) ? realpathSync(dir) : dir;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && alive(Number(name)))
    .flatMap((pid) => {
      try {
        const cwd = readlinkSync(`/proc/${pid}/cwd`).replace(/ \(deleted\)$/, '');
        return cwd === real || cwd.startsWith(`${real}/`)
          ? [`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`]
          : [];
      } catch {
        return [];
      }
    });
};

describe('no process outlives its owner (real SIGKILL, real processes)', function () {
  this.timeout(120_000);
  let cli: string;
  before(async () => {
    cli = await buildCliBundle();
  });
  after(async () => rm(join(cli, '..'), { recursive: true, force: true }));

  const cleanups: (() => Promise<void>)[] = [];
  const leftovers: number[] = [];
  const leftoverGroups: { pgid: number; startTicks: number }[] = [];
  afterEach(async () => {
    // Whatever a failed assertion left running is ended here, so no test leaves a process behind.
    // Never pid 0 or less (a pid file read before the shell wrote it): that would signal this process's own group.
    for (const pid of leftovers.splice(0))
      if (pid > 0)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
    // Groups through the same check as a takeover, so a reused group id is never signalled.
    killRecordedGroups(
      leftoverGroups.splice(0).map(({ pgid, startTicks }) => ({ host: hostname(), pgid, startTicks })),
    );
    for (const fn of cleanups.splice(0)) await fn();
  });

  /**
   * A project whose command lane, on its first attempt, records its shell's pid and
   * forks `sh -c 'record pid; exec sleep 1000'`, then sleeps; on a later attempt it
   * records what state the first attempt's background process was in, and exits 0.
   */
  async function setup() {
    const repo = await makeTempRepo();
    const pids = await makeTempDir();
    cleanups.push(repo.cleanup, pids.cleanup);
    const d = pids.dir;
    const command = [
      `if [ -e ${d}/first ]; then (cut -d' ' -f3 /proc/$(cat ${d}/bg.pid)/stat 2>/dev/null || echo gone) > ${d}/bg-at-retry; echo retried > retried.txt; exit 0; fi`,
      `touch ${d}/first`,
      `sh -c 'echo $$ > ${d}/bg.pid; exec sleep 1000' &`,
      `echo $$ > ${d}/lane.pid`,
      'sleep 1000',
    ].join('\n');
    const project = await Project.open(repo.dir, { registry: new LaneRegistry() });
    await project.settings.update((s) =>
      Object.assign(s, { defaultLane: 'command', leaseMs: 60_000, laneSettings: { command: { command } } }),
    );
    await project.tasks.add({ title: 'orphans' });
    await project.close();
    const sy = (args: string[]): ResultPromise => execa('node', [cli, ...args, '--repo', repo.dir], { reject: false });
    const lease = join(repo.dir, '.switchyard', 'runs', 't1.1', 'lease.json');
    // Started, and the group recorded with the run's lease.
    const started = async (run: ResultPromise): Promise<{ lane: number; bg: number; pgid: number }> => {
      let ended: string | undefined;
      void run.then((r) => {
        ended = `switchyard run ended early (${r.exitCode ?? r.signal}): ${r.stdout}\n${r.stderr}`;
      });
      await until(
        'the lane and its background process to start',
        () => {
          if (ended) assert.fail(ended);
          return [join(d, 'lane.pid'), join(d, 'bg.pid')].every((f) => existsSync(f) && pidIn(f) > 0);
        },
        30_000,
      );
      const lane = pidIn(join(d, 'lane.pid'));
      const bg = pidIn(join(d, 'bg.pid'));
      leftovers.push(lane, bg);
      await until(
        'the group to be recorded with the lease',
        () => existsSync(lease) && (JSON.parse(readFileSync(lease, 'utf8')).groups?.length ?? 0) > 0,
        10_000,
      );
      const pgid = readProcStat(lane)!.pgrp;
      leftoverGroups.push({ pgid, startTicks: readProcStat(pgid)!.startTicks });
      assert.equal(readProcStat(bg)!.pgrp, pgid, "the background process is in the lane's group");
      const recorded = JSON.parse(readFileSync(lease, 'utf8')).groups;
      assert.equal(recorded.length, 1);
      assert.equal(recorded[0].pgid, pgid);
      assert.equal(
        recorded[0].startTicks,
        readProcStat(pgid)!.startTicks,
        "the leader's start time (proc(5) field 22) is recorded",
      );
      return { lane, bg, pgid };
    };
    const readState = async () => JSON.parse(await readFile(join(repo.dir, '.switchyard', 'state.json'), 'utf8'));
    return { repo, d, sy, started, readState };
  }

  async function takeOver(t: Awaited<ReturnType<typeof setup>>, pgid: number): Promise<void> {
    const again = await t.sy(['run']);
    assert.equal(again.exitCode, 0, `${again.stdout}\n${again.stderr}`);
    const state = await t.readState();
    assert.equal(state.tasks[0].state, 'DONE', state.tasks[0].failureReason);
    assert.deepEqual(
      state.runs.map((r: { id: string; state: string }) => [r.id, r.state]),
      [
        ['t1.1', 'FAILED'],
        ['t1.2', 'SUCCEEDED'],
      ],
    );
    assert.equal(state.runs[0].failureCode, 'interrupted');
    assert.deepEqual(liveGroupMembers(pgid), [], 'nothing of the first attempt is alive after the takeover');
  }

  it("SIGKILL of `switchyard run`: the supervisor ends the lane's whole group within 2 s; none is alive after the takeover either", async () => {
    const t = await setup();
    const run = t.sy(['run']);
    const { lane, bg, pgid } = await t.started(run);
    const killedAt = Date.now();
    run.kill('SIGKILL');
    assert.equal((await run).signal, 'SIGKILL');
    await until(
      "the lane's group to die with its owner",
      () => !alive(lane) && !alive(bg) && liveGroupMembers(pgid).length === 0,
      2_000,
      10,
    );
    console.log(`      group gone ${Date.now() - killedAt} ms after the owner's SIGKILL`);
    await takeOver(t, pgid);
  });

  it("kill -9 of the owner's whole process group (what CI runners and `timeout -s KILL` do): the supervisor is not in it, ends the lane's group, and no process of the run is left", async () => {
    const t = await setup();
    // The owner leads a group of its own (as a CI job's shell does), so the whole group can be killed at once
    // without this test's process.
    const run = execa('node', [cli, 'run', '--repo', t.repo.dir], { reject: false, detached: true });
    const { lane, bg, pgid } = await t.started(run);
    const ownerGroup = readProcStat(run.pid!)!.pgrp;
    assert.equal(ownerGroup, run.pid, 'the owner leads its own group');
    const supervisor = readProcStat(lane)!.ppid;
    leftovers.push(supervisor);
    assert.notEqual(readProcStat(supervisor)!.pgrp, ownerGroup, "the supervisor is not in the owner's group");
    const killedAt = Date.now();
    process.kill(-ownerGroup, 'SIGKILL');
    assert.equal((await run).signal, 'SIGKILL');
    await until(
      'every process of the run to be gone',
      () =>
        !alive(lane) &&
        !alive(bg) &&
        !alive(supervisor) &&
        liveGroupMembers(pgid).length === 0 &&
        liveGroupMembers(ownerGroup).length === 0,
      5_000,
      10,
    );
    console.log(`      run gone ${Date.now() - killedAt} ms after kill -9 of the owner's group`);
  });

  it('owner and supervisor both SIGKILLed: the group survives them, and the takeover kills it before it retries the run', async () => {
    const t = await setup();
    const run = t.sy(['run']);
    const { lane, bg, pgid } = await t.started(run);
    // The lane's parent is the owner's one supervisor (shared by every group the owner starts): killing it
    // orphans every group of the run at once.
    const supervisor = readProcStat(lane)!.ppid;
    assert.ok(
      isSupervisorCommandLine(readFileSync(`/proc/${supervisor}/cmdline`, 'utf8')),
      "the lane's parent is the supervisor",
    );
    assert.equal(readProcStat(supervisor)!.ppid, run.pid, 'started by the `switchyard run` process');
    // Frozen first, so the owner cannot react to its supervisor's death.
    process.kill(run.pid!, 'SIGSTOP');
    process.kill(supervisor, 'SIGKILL');
    process.kill(run.pid!, 'SIGKILL');
    assert.equal((await run).signal, 'SIGKILL');
    // Once the supervisor is a zombie or gone, its death is complete: nothing of it is still on its way to the group.
    await until('the supervisor to be dead', () => !alive(supervisor));
    assert.ok(
      alive(lane) && alive(bg),
      'without its supervisor the group is still alive (what the takeover must handle)',
    );
    await takeOver(t, pgid);
    const seen = readFileSync(join(t.d, 'bg-at-retry'), 'utf8').trim();
    assert.ok(
      seen === 'gone' || seen === 'Z',
      `the background process was dead when the retry started (its state then: ${seen})`,
    );
    assert.ok(!alive(lane) && !alive(bg));
  });

  it("a process the lane forks is dead before the run's change is committed: its late write is in no commit and not in the worktree", async () => {
    const repo = await makeTempRepo();
    const pids = await makeTempDir();
    cleanups.push(repo.cleanup, pids.cleanup);
    const registry = new LaneRegistry();
    const { createCommandLane } = await import('../../../plugins/command');
    registry.register(createCommandLane());
    // The background process ignores SIGTERM (so does its sleep, which inherits the ignored signal): it takes the
    // SIGKILL.
    const d = pids.dir;
    const command = `echo $$ > ${d}/lane.pid; (trap '' TERM; sleep 4 & echo $! > ${d}/bg.pid; wait; echo late > late.txt) & while [ ! -s ${d}/bg.pid ]; do sleep 0.05; done; echo done > work.txt`;
    const project = await Project.open(repo.dir, { registry });
    await project.settings.update((s) =>
      Object.assign(s, { defaultLane: 'command', laneSettings: { command: { command } } }),
    );
    await project.tasks.add({ title: 'late writer' });
    const started = Date.now();
    await project.runQueue();
    const state = await project.state();
    assert.equal(state.tasks[0]!.state, 'DONE', state.tasks[0]!.failureReason);
    const bg = pidIn(join(d, 'bg.pid'));
    const pgid = pidIn(join(d, 'lane.pid'));
    leftovers.push(bg);
    assert.ok(!alive(bg), 'the background process is dead once the run is done');
    assert.deepEqual(liveGroupMembers(pgid), [], "nothing of the lane's group is alive");
    assert.ok(Date.now() - started >= 2_000, 'it ignored SIGTERM and was killed after the grace period');
    const run = state.runs[0]!;
    const files = (await repo.git('ls-tree', '-r', '--name-only', run.headCommit!)).trim().split('\n');
    assert.ok(
      files.includes('work.txt') && !files.includes('late.txt'),
      `the run's commit holds the lane's work only: ${files.join(', ')}`,
    );
    // No process is left in the worktree (the late writer's shell worked there), so nothing can write in it any more.
    assert.deepEqual(processesIn(run.worktree), [], 'no process works in the worktree after the run');
    assert.ok(!existsSync(join(run.worktree, 'late.txt')), 'nothing wrote into the worktree after the run');
    assert.ok(!existsSync(join(repo.dir, 'late.txt')));
    const everywhere = await repo.git('log', '--all', '--name-only', '--format=');
    assert.match(everywhere, /^work\.txt$/m);
    assert.doesNotMatch(everywhere, /late\.txt/, 'no commit on any branch has the late file');
    await project.close();
  });

  it('a CLI lane (the claude stand-in) and the process it spawned die with `switchyard run` within 2 s', async () => {
    const repo = await makeTempRepo();
    const tmp = await makeTempDir();
    cleanups.push(repo.cleanup, tmp.cleanup);
    const sleeperFile = join(tmp.dir, 'sleeper.pid');
    const fake = await standIn(tmp.dir, 'claude', [
      [{ replay: 'claude/started.jsonl' }, { spawnSleeper: sleeperFile }, { hang: true }],
    ]);
    const project = await Project.open(repo.dir, { registry: new LaneRegistry() });
    await project.settings.update((s) =>
      Object.assign(s, {
        defaultLane: 'claude-code',
        leaseMs: 60_000,
        laneSettings: { 'claude-code': { binary: fake.binary } },
      }),
    );
    await project.tasks.add({ title: 'cli orphans' });
    await project.close();
    const run = execa('node', [cli, 'run', '--repo', repo.dir], { reject: false, env: FAKE_KEYS });
    let ended: string | undefined;
    void run.then((r) => {
      ended = `switchyard run ended early (${r.exitCode ?? r.signal}): ${r.stdout}\n${r.stderr}`;
    });
    await until(
      'the stand-in and its sleeper to start',
      async () => {
        if (ended) assert.fail(ended);
        return existsSync(sleeperFile) && (await fake.invocations()).length === 1;
      },
      30_000,
    );
    const claude = (await fake.invocations())[0]! as unknown as { pid: number };
    const sleeper = pidIn(sleeperFile);
    leftovers.push(claude.pid, sleeper);
    const pgid = readProcStat(claude.pid)!.pgrp;
    assert.equal(readProcStat(sleeper)!.pgrp, pgid);
    const killedAt = Date.now();
    run.kill('SIGKILL');
    assert.equal((await run).signal, 'SIGKILL');
    await until(
      "the CLI's group to die with its owner",
      () => !alive(claude.pid) && !alive(sleeper) && liveGroupMembers(pgid).length === 0,
      2_000,
      10,
    );
    console.log(`      CLI group gone ${Date.now() - killedAt} ms after the owner's SIGKILL`);
  });
});

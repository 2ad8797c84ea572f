import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { makeTempDir } from '../../helpers/tempRepo';
import { until } from '../../helpers/until';
import { killRecordedGroups, liveGroupMembers, readProcStat } from '../../../src/core/process/killRecordedGroups';
import { RunGroups, withRunGroups } from '../../../src/core/process/runGroups';
import { startProcessGroup } from '../../../src/core/process/startProcessGroup';

const alive = (pid: number): boolean => {
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
};
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const collect = (stream: NodeJS.ReadableStream): Promise<string> =>
  new Promise((done) => {
    let text = '';
    stream.on('data', (c: Buffer) => (text += c.toString()));
    stream.on('end', () => done(text));
  });

describe("startProcessGroup (the supervisor between Switchyard and a run's processes)", function () {
  this.timeout(60_000);
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  const started: number[] = [];
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    // Never pid 0 or less: that would signal this process's own group.
    for (const pid of started.splice(0))
      if (pid > 0)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
    await tmp.cleanup();
  });

  it('passes stdin, stdout, stderr and the exit code through, with exactly the given environment (no HOME)', async () => {
    const group = startProcessGroup({
      file: 'cat; echo "err $FOO $HOME" >&2; exit 7',
      shell: true,
      cwd: tmp.dir,
      env: { ...env, FOO: 'bar' },
      input: 'spec text\n',
    });
    const [out, err, end] = await Promise.all([collect(group.stdout), collect(group.stderr), group.done]);
    assert.deepEqual(
      { out, err, end },
      { out: 'spec text\n', err: 'err bar \n', end: { exitCode: 7, signal: undefined } },
    );
  });

  it('reports the signal that ended the program, and why a program could not start', async () => {
    const killed = startProcessGroup({ file: 'kill -TERM $$', shell: true, cwd: tmp.dir, env });
    assert.deepEqual(await killed.done, { exitCode: undefined, signal: 'SIGTERM' });
    const missing = await startProcessGroup({ file: join(tmp.dir, 'no-such-binary'), args: ['x'], cwd: tmp.dir, env })
      .done;
    assert.match(missing.spawnError ?? '', /ENOENT/);
  });

  it('ends what the program left running in its group before `done` resolves', async () => {
    const group = startProcessGroup({
      file: `sleep 300 & echo $! > ${tmp.dir}/bg.pid; echo $$ > ${tmp.dir}/lane.pid`,
      shell: true,
      cwd: tmp.dir,
      env,
    });
    const end = await group.done;
    assert.equal(end.exitCode, 0);
    const bg = Number(readFileSync(join(tmp.dir, 'bg.pid'), 'utf8'));
    started.push(bg);
    assert.ok(!alive(bg), 'the background sleep is dead');
    assert.deepEqual(liveGroupMembers(Number(readFileSync(join(tmp.dir, 'lane.pid'), 'utf8'))), []);
  });

  it('stop(): SIGTERM, then SIGKILL after the grace period for a group that ignores SIGTERM', async () => {
    const group = startProcessGroup({
      file: `trap '' TERM; echo $$ > ${tmp.dir}/lane.pid; sleep 300`,
      shell: true,
      cwd: tmp.dir,
      env,
      killGraceMs: 400,
    });
    await until('the program to start', () => existsSync(join(tmp.dir, 'lane.pid')) && group.record !== undefined);
    const at = Date.now();
    group.stop();
    const end = await group.done;
    const took = Date.now() - at;
    assert.equal(end.signal, 'SIGKILL');
    assert.ok(took >= 350 && took < 5_000, `ended ${took} ms after stop()`);
    assert.deepEqual(liveGroupMembers(group.record!.pgid), []);
  });

  it('inside a run: the group is recorded (pgid, start time, host) while it lives, and stopAll ends it', async () => {
    const changes: unknown[][] = [];
    const groups = new RunGroups((records) => changes.push(records));
    const group = await withRunGroups(groups, async () =>
      startProcessGroup({ file: 'sleep 300', shell: true, cwd: tmp.dir, env }),
    );
    await until('the group to be recorded', () => changes.length > 0);
    const record = group.record!;
    assert.deepEqual(changes[0], [record]);
    assert.equal(record.host, hostname());
    assert.equal(record.startTicks, readProcStat(record.pgid)!.startTicks);
    assert.equal(readProcStat(record.pgid)!.pgrp, record.pgid, 'the program leads its own group');
    assert.equal(await groups.stopAll(), 1);
    assert.deepEqual(liveGroupMembers(record.pgid), []);
    assert.deepEqual(changes.at(-1), [], 'and the record is dropped once it is gone');
  });

  for (const kind of ['run_command', 'acceptance'] as const) {
    it(`${kind}: the command and what it forked die within 2 s of a SIGKILL of their owner`, async () => {
      const command = `sh -c 'echo $$ > ${tmp.dir}/bg.pid; exec sleep 300' & echo $$ > ${tmp.dir}/lane.pid; sleep 300`;
      const owner = execa(
        'node',
        ['--import', 'tsx', resolve('test/fixtures/process/groupOwner.ts'), kind, command, tmp.dir],
        { reject: false },
      );
      let printed = '';
      owner.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      // A pid file exists before the shell has written it: wait for the number.
      const pidIn = (name: string): number =>
        existsSync(join(tmp.dir, name)) ? Number(readFileSync(join(tmp.dir, name), 'utf8').trim()) : 0;
      await until(
        'the command and its background process to start',
        () => pidIn('lane.pid') > 0 && pidIn('bg.pid') > 0,
        30_000,
      );
      const lane = pidIn('lane.pid');
      const bg = pidIn('bg.pid');
      started.push(lane, bg);
      await until("the group to be recorded for the run's lease", () => printed.includes(`"pgid":${lane}`), 10_000);
      const at = Date.now();
      owner.kill('SIGKILL');
      const result = await owner;
      assert.equal(result.signal, 'SIGKILL');
      await until(
        'the group to die with its owner',
        () => !alive(lane) && !alive(bg) && liveGroupMembers(lane).length === 0,
        2_000,
        10,
      );
      console.log(`      ${kind}: group gone ${Date.now() - at} ms after the owner's SIGKILL`);
    });
  }
});

describe("killRecordedGroups (the takeover ends a dead owner's groups)", () => {
  it("kills the recorded group only when host, boot and the leader's start time match", async () => {
    const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    const pid = child.pid!;
    try {
      const stat = readProcStat(pid)!;
      assert.equal(stat.pgrp, pid);
      assert.deepEqual(
        killRecordedGroups([{ host: hostname(), pgid: pid, startTicks: stat.startTicks + 1 }]),
        [],
        'a reused pid (other start time) is left alone',
      );
      assert.deepEqual(
        killRecordedGroups([{ host: `${hostname()}-other`, pgid: pid, startTicks: stat.startTicks }]),
        [],
        "another machine's group is left alone",
      );
      assert.deepEqual(
        killRecordedGroups([{ host: hostname(), bootId: 'another-boot', pgid: pid, startTicks: stat.startTicks }]),
        [],
        'a group from before a reboot is left alone',
      );
      assert.ok(alive(pid));
      const exited = new Promise((done) => child.on('exit', (_code, signal) => done(signal)));
      assert.deepEqual(killRecordedGroups([{ host: hostname(), pgid: pid, startTicks: stat.startTicks }]), [pid]);
      assert.equal(await exited, 'SIGKILL');
    } finally {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { makeTempDir } from '../../helpers/tempRepo';
import { isSupervisorCommandLine } from '../../helpers/supervisorProcess';
import { until, untilValue } from '../../helpers/until';
import { killRecordedGroups, liveGroupMembers, readProcStat } from '../../../src/core/process/killRecordedGroups';
import type { ProcessGroup } from '../../../src/core/process/processGroup';
import { SUPERVISOR_IDLE_MS } from '../../../src/core/process/sharedSupervisor';
import { OUTPUT_CAP_MS, startProcessGroup } from '../../../src/core/process/startProcessGroup';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const alive = (pid: number): boolean => {
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
};
const collect = (stream: NodeJS.ReadableStream): Promise<Buffer> =>
  new Promise((done) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => done(Buffer.concat(chunks)));
  });
/** The live children of process `parent` that run the supervisor's program, from /proc: its supervisors. */
const supervisorsOf = (parent: number): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = readProcStat(pid);
      if (!stat || stat.ppid !== parent || stat.state === 'Z') return false;
      try {
        return isSupervisorCommandLine(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
/** The process that started a group's leader: its supervisor. */
const supervisorOf = (group: ProcessGroup): number => readProcStat(group.record!.pgid)!.ppid;
const recorded = (group: ProcessGroup): Promise<unknown> => until('the group to start', () => !!group.record);

describe('the shared supervisor (one per Switchyard process, every group multiplexed over it)', function () {
  this.timeout(60_000);
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  const groups: ProcessGroup[] = [];
  const pids: number[] = [];
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => {
    // Whatever a failed assertion left running: groups through the takeover's check, single pids (never 0 or less).
    const left = groups.splice(0);
    killRecordedGroups(left.flatMap((g) => (g.record ? [g.record] : [])));
    // A reader a failed test left paused would hold its group in the supervisor for good (nothing is dropped unread),
    // and with it the next tests' supervisor: read what is left.
    for (const g of left) for (const stream of [g.stdout, g.stderr]) stream?.resume();
    for (const pid of pids.splice(0))
      if (pid > 0)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
    await tmp.cleanup();
  });
  before(async function () {
    this.timeout(SUPERVISOR_IDLE_MS + 15_000);
    // These tests count this process's supervisors. Earlier test files leave theirs idle (a CLI test's import() of the
    // core is a second instance of the module, with its own), and an idle one is let go after SUPERVISOR_IDLE_MS:
    // start from none.
    await until(
      'the supervisors of earlier tests to be let go',
      () => supervisorsOf(process.pid).length === 0,
      SUPERVISOR_IDLE_MS + 10_000,
    );
  });
  const start = (file: string, extra: { input?: string; killGraceMs?: number } = {}): ProcessGroup => {
    const group = startProcessGroup({ file, shell: true, cwd: tmp.dir, env, ...extra });
    groups.push(group);
    return group;
  };

  it('groups started one after another and at once all run under one supervisor process', async () => {
    const parents: number[] = [];
    for (let i = 0; i < 4; i++) {
      const group = start('sleep 0.2');
      await recorded(group);
      parents.push(supervisorOf(group));
      assert.deepEqual(await group.done, { exitCode: 0, signal: undefined });
    }
    const concurrent = Array.from({ length: 6 }, () => start('sleep 0.5'));
    await Promise.all(concurrent.map(recorded));
    parents.push(...concurrent.map(supervisorOf));
    assert.deepEqual(supervisorsOf(process.pid), [parents[0]], 'exactly one supervisor is a child of this process');
    assert.deepEqual(new Set(parents), new Set([parents[0]]), 'every leader was started by it');
    assert.notEqual(new Set(concurrent.map((g) => g.record!.pgid)).size, 1, 'each group has its own group id');
    for (const g of concurrent) assert.equal(readProcStat(g.record!.pgid)!.pgrp, g.record!.pgid);
    for (const end of await Promise.all(concurrent.map((g) => g.done))) assert.equal(end.exitCode, 0);
  });

  it("two groups' outputs do not mix, and 5 MB of binary output arrive byte-exact", async () => {
    const blob = randomBytes(5 * 1024 * 1024);
    writeFileSync(join(tmp.dir, 'blob'), blob);
    const a = start('cat blob; printf err-a >&2');
    const b = start('for i in $(seq 1 20000); do echo "b line $i"; done; printf err-b >&2; exit 3');
    const [aOut, aErr, bOut, bErr, aEnd, bEnd] = await Promise.all([
      collect(a.stdout),
      collect(a.stderr),
      collect(b.stdout),
      collect(b.stderr),
      a.done,
      b.done,
    ]);
    assert.ok(aOut.equals(blob), `stdout of the first group is the blob (${aOut.length} of ${blob.length} bytes)`);
    const expected = Array.from({ length: 20000 }, (_, i) => `b line ${i + 1}\n`).join('');
    assert.equal(bOut.toString(), expected);
    assert.deepEqual([aErr.toString(), bErr.toString()], ['err-a', 'err-b']);
    assert.deepEqual(
      [aEnd, bEnd],
      [
        { exitCode: 0, signal: undefined },
        { exitCode: 3, signal: undefined },
      ],
    );
  });

  it('back-pressure: a reader that pauses holds the group back, and nothing is lost', async () => {
    // Far more than can be in flight when the pause takes effect: what the supervisor reads from the pipe in one
    // readiness event (libuv reads up to 32 × 64 KiB) plus the socket's buffers, about 2.5 MiB on a loaded machine.
    const blob = randomBytes(16 * 1024 * 1024);
    writeFileSync(join(tmp.dir, 'blob'), blob);
    const group = start('cat blob; echo written > written');
    group.stdout.pause();
    const chunks: Buffer[] = [];
    group.stdout.on('data', (c: Buffer) => chunks.push(c));
    group.stdout.pause();
    let settled = false;
    void group.done.then(() => (settled = true));
    await until('the first output to reach the paused reader', () => group.stdout.readableLength > 0);
    // A window for what must not happen: were the output read without bound, cat would be done with its 16 MiB within
    // it. Nothing ends it early when back-pressure works, so it cannot fail a correct supervisor.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.ok(!settled, 'the group has not ended while its reader is paused');
    assert.throws(() => readFileSync(join(tmp.dir, 'written')), 'cat is still blocked on its writes');
    const buffered = group.stdout.readableLength;
    assert.ok(
      buffered < 4 * 1024 * 1024,
      `the owner buffers a bounded amount while paused, far less than the 16 MiB written (${buffered} bytes)`,
    );
    group.stdout.resume();
    assert.deepEqual(await group.done, { exitCode: 0, signal: undefined });
    assert.ok(Buffer.concat(chunks).equals(blob));
  });

  it('a group with input: written to stdin, which is then closed (1 MB through cat)', async () => {
    const input = `${'x'.repeat(1024 * 1024 - 1)}\n`;
    const group = start('cat; echo closed', { input });
    const [out, end] = await Promise.all([collect(group.stdout), group.done]);
    assert.equal(out.toString(), `${input}closed\n`);
    assert.equal(end.exitCode, 0);
  });

  it(`an escaped process holding the pipes delays \`done\` by about OUTPUT_CAP_MS (${OUTPUT_CAP_MS} ms)`, async () => {
    // The leader waits for the pid file: until then the process may not have left the group yet.
    const group = start(
      "setsid sh -c 'echo $$ > escaped.pid; exec sleep 300' & while [ ! -s escaped.pid ]; do sleep 0.05; done; echo leader",
    );
    const out = collect(group.stdout);
    const escaped = await untilValue('the escaped process', () => {
      const text = (() => {
        try {
          return readFileSync(join(tmp.dir, 'escaped.pid'), 'utf8').trim();
        } catch {
          return '';
        }
      })();
      return Number(text) > 0 ? Number(text) : undefined;
    });
    pids.push(escaped);
    const at = Date.now();
    assert.deepEqual(await group.done, { exitCode: 0, signal: undefined });
    const took = Date.now() - at;
    assert.equal((await out).toString(), 'leader\n');
    assert.ok(alive(escaped), 'the escaped process still runs (it left the group)');
    assert.ok(
      took >= OUTPUT_CAP_MS - 200 && took < OUTPUT_CAP_MS + 3_000,
      `done resolved ${took} ms after the escaped process started (the cap ended the wait)`,
    );
  });

  it('SIGINT is ignored by the supervisor; SIGTERM ends every group (each as its leader ended)', async () => {
    const first = [start('sleep 300'), start('sleep 300')];
    await Promise.all(first.map(recorded));
    const supervisor = supervisorOf(first[0]!);
    process.kill(supervisor, 'SIGINT');
    // A group started after the signal and run to its end by the same supervisor: had SIGINT been fatal to it, it would
    // have died before it read the request.
    const after = start('sleep 0.2');
    await recorded(after);
    assert.equal(supervisorOf(after), supervisor, 'the same supervisor ran a group after the SIGINT');
    assert.deepEqual(await after.done, { exitCode: 0, signal: undefined });
    assert.ok(alive(supervisor) && first.every((g) => alive(g.record!.pgid)), 'SIGINT changed nothing');
    process.kill(supervisor, 'SIGTERM');
    for (const end of await Promise.all(first.map((g) => g.done)))
      assert.deepEqual(end, { exitCode: undefined, signal: 'SIGTERM' });
    for (const g of first) assert.deepEqual(liveGroupMembers(g.record!.pgid), []);
    // Reaped (gone from /proc): this process has seen it exit, so the next group goes to a fresh one.
    await until('the supervisor to exit and be reaped', () => readProcStat(supervisor) === undefined);
    const next = start('echo again; sleep 0.3');
    const out = collect(next.stdout);
    await recorded(next);
    assert.notEqual(supervisorOf(next), supervisor, 'a fresh supervisor');
    assert.equal((await out).toString(), 'again\n');
    assert.equal((await next.done).exitCode, 0);
  });

  it('supervisor SIGKILLed with 2 live groups: both `done` resolve, the next group starts a fresh one', async () => {
    const live = [start('sleep 300'), start('sleep 300')];
    await Promise.all(live.map(recorded));
    const supervisor = supervisorOf(live[0]!);
    assert.equal(supervisorOf(live[1]!), supervisor);
    process.kill(supervisor, 'SIGKILL');
    const ends = await Promise.all(live.map((g) => g.done));
    assert.deepEqual(ends, [
      { exitCode: undefined, signal: 'SIGKILL' },
      { exitCode: undefined, signal: 'SIGKILL' },
    ]);
    // Without their supervisor the groups live on (what a takeover ends, see killRecordedGroups).
    assert.ok(live.every((g) => alive(g.record!.pgid)));
    const next = start('echo fresh; sleep 0.3; exit 4');
    const out = collect(next.stdout);
    await recorded(next);
    const fresh = supervisorOf(next);
    assert.notEqual(fresh, supervisor);
    assert.deepEqual(supervisorsOf(process.pid), [fresh]);
    assert.deepEqual([(await out).toString(), await next.done], ['fresh\n', { exitCode: 4, signal: undefined }]);
  });

  it(`an idle supervisor is let go after ${SUPERVISOR_IDLE_MS} ms; the next group starts a fresh one`, async () => {
    const first = start('sleep 0.2');
    await recorded(first);
    const supervisor = supervisorOf(first);
    await first.done;
    const idleSince = Date.now();
    await until(
      'the idle supervisor to exit',
      () => readProcStat(supervisor) === undefined,
      SUPERVISOR_IDLE_MS + 10_000,
    );
    const idle = Date.now() - idleSince;
    assert.ok(
      idle >= SUPERVISOR_IDLE_MS - 100,
      `it exited ${idle} ms after the last group ended: it stays there for the next group until then`,
    );
    const next = start('sleep 0.2; echo next');
    const out = collect(next.stdout);
    await recorded(next);
    assert.notEqual(supervisorOf(next), supervisor);
    assert.equal((await out).toString(), 'next\n');
  });

  describe('in an owner process of its own', () => {
    const owner = (mode: 'serial' | 'concurrent', count: number, command: string) =>
      execa(
        'node',
        ['--import', 'tsx', resolve('test/fixtures/process/groupsOwner.ts'), mode, String(count), command, tmp.dir],
        { reject: false },
      );

    it('SIGKILL of the owner with 3 live groups ends all three within 2 s', async () => {
      const run = owner('concurrent', 3, "sh -c 'exec sleep 300' & sleep 300");
      let printed = '';
      run.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      const records: { pgid: number; startTicks: number; supervisor: number }[] = await untilValue(
        'three groups to start',
        () => {
          const lines = printed.split('\n').filter((l) => l.startsWith('{"host"'));
          return lines.length === 3 ? lines.map((l) => JSON.parse(l)) : undefined;
        },
        30_000,
      );
      const stand = records.map(({ pgid, startTicks }) => ({ record: { host: hostname(), pgid, startTicks } }));
      groups.push(...(stand as unknown as ProcessGroup[]));
      const supervisor = records[0]!.supervisor;
      assert.ok(records.every((r) => r.supervisor === supervisor));
      assert.deepEqual(supervisorsOf(run.pid!), [supervisor], 'one supervisor for the three groups');
      for (const r of records) assert.ok(liveGroupMembers(r.pgid).length >= 2, 'each group has its two processes');
      const at = Date.now();
      run.kill('SIGKILL');
      assert.equal((await run).signal, 'SIGKILL');
      await until(
        'the three groups and the supervisor to die with their owner',
        () => records.every((r) => liveGroupMembers(r.pgid).length === 0) && !alive(supervisor),
        2_000,
        10,
      );
      console.log(`      three groups gone ${Date.now() - at} ms after the owner's SIGKILL`);
    });

    it('an idle supervisor does not keep its owner alive, and exits with it', async () => {
      const at = Date.now();
      const result = await owner('serial', 3, 'sleep 0.2');
      assert.equal(result.exitCode, 0, String(result.stderr));
      const lines = String(result.stdout).trim().split('\n');
      assert.equal(lines.length, 4, String(result.stdout));
      const supervisors = lines.slice(0, 3).map((l) => (JSON.parse(l) as { supervisor: number }).supervisor);
      assert.equal(new Set(supervisors).size, 1, 'the three groups, one after another, had one supervisor');
      assert.deepEqual(JSON.parse(lines[3]!).done, [{ exitCode: 0 }, { exitCode: 0 }, { exitCode: 0 }]);
      console.log(`      the owner ended by itself ${Date.now() - at} ms after it started`);
      await until('the idle supervisor to exit with its owner', () => !alive(supervisors[0]!), 2_000, 10);
    });
  });
});

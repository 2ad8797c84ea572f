import assert from 'node:assert/strict';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { newRun } from '../../../src/core/transitions/newRun';
import { findTask } from '../../../src/core/transitions/setTaskState';
import { retryTask } from '../../../src/core/engine/commands/taskCommands';
import { MirrorBehind, SchedulerMirror } from '../../../src/core/engine/drain/schedulerMirror';
import { setTaskState } from '../../../src/core/transitions/setTaskState';
import { laneCosts } from '../../../src/core/scheduler/laneCosts';
import type { ProjectState } from '../../../src/core/store/projectState';
import { sharedPrefixOf } from '../../../src/core/store/sharedPrefix';
import { workingOnlyInfo } from '../../../src/core/store/workingOnly';
import { addTasks, taskWithRun } from '../../helpers/finishedTasks';
import { makeTempDir } from '../../helpers/tempRepo';

/** What a mirror would start now, picked on a scratch mirror built from scratch from a plain copy of `state`. */
function freshPicks(state: ProjectState, now: number): string[] {
  const mirror = new SchedulerMirror({ concurrency: 100 });
  mirror.sync(structuredClone(state), now);
  return pickIds(mirror, now);
}

function pickIds(mirror: SchedulerMirror, now: number): string[] {
  return mirror
    .pick(now)
    .picks.map((p) => p.id)
    .sort();
}

describe('a drain mirror on top of the history', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => dir.cleanup());

  it('skips the history it holds, meets a DONE dependency there, and schedules a retried task again', async () => {
    const store = await ProjectStore.open(dir.dir);
    await store.update((s) => {
      addTasks(s, 1, 40, 'DONE');
      addTasks(s, 41, 41, 'FAILED');
      addTasks(s, 42, 80, 'DONE');
    });
    await store.update((s) => {
      const afterDone = taskWithRun(81, 'READY').task;
      afterDone.spec.dependsOn = ['t5'];
      const afterFailed = taskWithRun(82, 'READY').task;
      afterFailed.spec.dependsOn = ['t41'];
      s.tasks.push(afterDone, afterFailed);
      s.nextTaskNumber = 83;
    });
    const now = Date.now();
    const mirror = new SchedulerMirror({ concurrency: 100 });
    const first = await store.read();
    assert.ok((sharedPrefixOf(first.tasks)?.length ?? 0) >= 40, 'the read begins with the shared history');
    mirror.sync(first, now);
    // Once more on a later revision with the same history: the mirror skips what it holds and still sees a new task.
    await store.update((s) => {
      s.tasks.push(taskWithRun(83, 'READY').task);
      s.nextTaskNumber = 84;
    });
    const second = await store.read();
    assert.equal(sharedPrefixOf(second.tasks)?.of, sharedPrefixOf(first.tasks)?.of, 'the same shared history');
    assert.equal(mirror.sync(second, now), 1, 'only the new task is compared');
    assert.deepEqual(pickIds(mirror, now), ['t81', 't83'], 'the dependency on t5 (history, DONE) is met; t41 is not');
    assert.deepEqual(freshPicks(second, now), ['t81', 't83'], 'as a mirror built from a plain copy picks');

    // What was picked ends (as a claim and its runs would record), and t41 leaves the history for the working set.
    await store.update((s) => {
      for (const t of s.tasks) if (t.id === 't81' || t.id === 't83') t.state = 'DONE';
    });
    await retryTask(store, 't41');
    const third = await store.read();
    assert.ok(mirror.sync(third, now + 1) >= 1);
    assert.deepEqual(pickIds(mirror, now + 1), ['t41']);
    assert.deepEqual(freshPicks(third, now + 1), ['t41'], 'as a fresh mirror picks');
    // Its next run is numbered after the one it had in the history, while another run holds port slot 0.
    const { started, running } = await store.update((s) => {
      const other = newRun(s, findTask(s, 't82'), { root: dir.dir, owner: 'o', lane: 'command', resume: 'none', now });
      const run = newRun(s, findTask(s, 't41'), { root: dir.dir, owner: 'o', lane: 'command', resume: 'none', now });
      return { started: run, running: other };
    });
    assert.equal(started.id, 't41.2');
    assert.equal(started.parentRunId, 't41.1');
    assert.notEqual(started.portSlot, running.portSlot);
    await store.update((s) => {
      findTask(s, 't82').state = 'READY';
      const t41 = findTask(s, 't41');
      t41.state = 'DONE';
      for (const r of s.runs) if (r.state === 'RUNNING') r.state = 'SUCCEEDED';
    });
    assert.ok(mirror.sync(await store.read(), now + 2) >= 1);
    assert.deepEqual(pickIds(mirror, now + 2), ['t82'], 't41 DONE frees its dependent');
  });

  it('from the working set alone: looks up dependencies in the history and tasks that finished and left', async () => {
    const store = await ProjectStore.open(dir.dir);
    await store.update((s) => {
      addTasks(s, 1, 40, 'DONE');
      addTasks(s, 41, 41, 'FAILED');
      addTasks(s, 42, 80, 'DONE');
      addTasks(s, 81, 84, 'READY');
      findTask(s, 't81').spec.dependsOn = ['t5'];
      findTask(s, 't82').spec.dependsOn = ['t41'];
      findTask(s, 't83').spec.dependsOn = ['t84'];
    });
    const asked: string[][] = [];
    const lookups = {
      findFinished: (ids: Iterable<string>) => {
        asked.push([...ids].sort());
        return store.findFinished(ids);
      },
    };
    const now = Date.now();
    const mirror = new SchedulerMirror({ concurrency: 100 });
    const first = await store.readWorking();
    assert.ok(workingOnlyInfo(first), 'the working set carries the history samples');
    assert.throws(() => mirror.sync(first, now), MirrorBehind, 'the dependencies in the history are unknown to it');
    await mirror.prepare(first, lookups);
    assert.deepEqual(asked, [['t41', 't5']], 'only the dependencies outside the working set are looked up');
    mirror.sync(first, now);
    assert.deepEqual(pickIds(mirror, now), ['t81', 't84'], 't5 (history, DONE) is met; t41 (FAILED) and t84 are not');
    assert.deepEqual(freshPicks(await store.read(), now), ['t81', 't84'], 'as a mirror of the whole state picks');

    // t81 and t84 run and end, then 25 more tasks finish before the mirror looks again: t81 and t84 leave the
    // working set for the history while the mirror still holds them RUNNING.
    await store.updateWorking((s) => {
      for (const id of ['t81', 't84']) {
        setTaskState(findTask(s, id), 'RUNNING');
        setTaskState(findTask(s, id), 'CANCELED');
      }
      findTask(s, 't84').state = 'DONE';
      addTasks(s, 85, 109, 'DONE');
    });
    const second = await store.readWorking();
    assert.ok(!second.tasks.some((t) => t.id === 't84'), 't84 left the working set');
    assert.throws(
      () => mirror.sync(second, now + 1),
      (e: unknown) => e instanceof MirrorBehind && e.ids.includes('t84'),
    );
    await mirror.prepare(second, lookups);
    mirror.sync(second, now + 1);
    assert.deepEqual(pickIds(mirror, now + 1), ['t83'], 't84 DONE (found in the history) frees t83');
    assert.deepEqual(freshPicks(await store.read(), now + 1), ['t83'], 'as a mirror of the whole state picks');
    assert.equal(mirror.gaps(second).length, 0, 'nothing is looked up twice');
    assert.deepEqual(laneCosts(second), laneCosts(await store.read()), 'lane costs as from the whole state');
  });

  it('estimates lane costs from the shared history as from a plain copy, as the history grows', async () => {
    const store = await ProjectStore.open(dir.dir);
    const withCosts = (s: ProjectState, from: number, to: number, lane: string) => {
      const runs = s.runs.length;
      addTasks(s, from, to, 'DONE');
      for (const [i, run] of s.runs.slice(runs).entries()) {
        run.lane = lane;
        run.usage = { inputTokens: 1, outputTokens: 1, costUsd: (from + i) / 100 };
      }
    };
    await store.update((s) => withCosts(s, 1, 30, 'a'));
    await store.update((s) => withCosts(s, 31, 60, 'b'));
    const first = await store.read();
    assert.ok((sharedPrefixOf(first.runs)?.length ?? 0) > 0, 'runs of the history are shared');
    assert.deepEqual(laneCosts(first), laneCosts(structuredClone(first)));
    // Lane a's latest runs are all in the history; lane b's newest are in the working set.
    assert.ok(Math.abs(laneCosts(first).a! - (11 + 30) / 2 / 100) < 1e-9, 'lane a: its 20 latest, t11..t30');
    await store.update((s) => withCosts(s, 61, 75, 'a'));
    const second = await store.read();
    const [before, after] = [sharedPrefixOf(first.runs)!, sharedPrefixOf(second.runs)!];
    assert.ok(after.of === before.of && after.length > before.length, 'the same shared runs, grown');
    assert.deepEqual(laneCosts(second), laneCosts(structuredClone(second)), 'after the history grew');
  });
});

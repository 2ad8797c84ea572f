import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { findTask, setTaskState } from '../../../src/core/transitions/setTaskState';
import { retryTask } from '../../../src/core/engine/commands/taskCommands';
import { laneCosts } from '../../../src/core/scheduler/laneCosts';
import { workingOnlyInfo } from '../../../src/core/store/workingOnly';
import { addTasks, taskWithRun } from '../../helpers/finishedTasks';
import { makeTempDir } from '../../helpers/tempRepo';

/** Succeeded runs cost `n` cents on lane `lane-<n mod lanes>`: each lane's estimate depends on which runs it holds. */
function priced(state: Parameters<typeof addTasks>[0], from: number, to: number, lanes = 3): void {
  for (let n = from; n <= to; n++) {
    const { task, runs } = taskWithRun(n, n % 7 === 0 ? 'FAILED' : 'DONE');
    for (const run of runs) {
      run.lane = `lane-${n % lanes}`;
      run.usage = { inputTokens: 1, outputTokens: 1, costUsd: n / 100 };
    }
    state.tasks.push(task);
    state.runs.push(...runs);
  }
  state.nextTaskNumber = Math.max(state.nextTaskNumber, to + 1);
}

describe('ProjectStore working-set updates (the history neither read nor composed)', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (tmp = await makeTempDir()));
  afterEach(async () => tmp.cleanup());
  const historyDir = () => join(tmp.dir, '.switchyard', 'history');
  const stateFile = () => join(tmp.dir, '.switchyard', 'state.json');

  it('changes an unfinished task without reading the history (garbage here), moving finished ones out', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => priced(s, 1, 300));
    await store.update((s) => addTasks(s, 301, 305, 'READY'));
    const segments = (await readdir(historyDir())).map((f) => join(historyDir(), f));
    const kept = await Promise.all(segments.map((f) => readFile(f)));
    // A fresh process whose history is garbage: the working-set paths never read it; a whole read fails on it.
    for (const [i, segment] of segments.entries()) await writeFile(segment, 'x'.repeat(kept[i]!.length));
    const fresh = await ProjectStore.open(tmp.dir);
    const seen = await fresh.updateWorking((s) => {
      assert.ok(workingOnlyInfo(s), 'the draft is marked as the working set alone');
      for (let n = 301; n <= 305; n++) setTaskState(findTask(s, `t${n}`), 'CANCELED');
      return s.tasks.length;
    });
    assert.equal(seen, 25, 'the draft held the 20 newest finished and the 5 changed');
    const working = await fresh.readWorking();
    assert.deepEqual(
      working.tasks.map((t) => t.id),
      Array.from({ length: 20 }, (_, i) => `t${286 + i}`),
      'the 5 oldest finished left for the history',
    );
    assert.ok((await fresh.findFinished(['t300'])).has('t300'), 'found in the working set');
    await assert.rejects(fresh.read(), /history.*not valid JSON/);
    // The garbage ends where the committed history did: the appended records follow it.
    for (const [i, segment] of segments.entries()) {
      const now = await readFile(segment);
      await writeFile(segment, Buffer.concat([kept[i]!, now.subarray(kept[i]!.length)]));
    }
    const all = await (await ProjectStore.open(tmp.dir)).read();
    assert.equal(all.tasks.length, 305);
    assert.deepEqual(
      all.tasks.slice(-25).map((t) => t.state),
      [...all.tasks.slice(-25, -5).map((t) => t.state), ...Array(5).fill('CANCELED')],
    );
  });

  it('a change that looks up a task outside the working set runs again on the whole state', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => addTasks(s, 1, 40, 'DONE'));
    await store.update((s) => addTasks(s, 41, 41, 'READY'));
    let runs = 0;
    const state = await store.updateWorking((s) => {
      runs++;
      const dep = findTask(s, 't2');
      findTask(s, 't41').spec.dependsOn = [dep.id];
      return workingOnlyInfo(s) ? 'working' : 'whole';
    });
    assert.equal(state, 'whole');
    assert.equal(runs, 2, 'once on the working set (the miss), once on the whole state');
    assert.deepEqual(findTask(await store.read(), 't41').spec.dependsOn, ['t2']);
  });

  it('keeps the history lane cost samples: the estimate from the working set equals the whole one', async () => {
    const store = await ProjectStore.open(tmp.dir);
    const same = async (when: string) => {
      const fresh = await ProjectStore.open(tmp.dir);
      assert.deepEqual(laneCosts(await fresh.readWorking()), laneCosts(await fresh.read()), when);
      assert.deepEqual(laneCosts(await store.readWorking()), laneCosts(await store.read()), `${when} (writer)`);
    };
    await store.update((s) => priced(s, 1, 90));
    await same('after one update');
    for (let from = 91; from <= 150; from += 10) await store.updateWorking((s) => priced(s, from, from + 9));
    await same('after working-set updates');
    // Back from the history (its runs leave the history's samples), then finished again and pushed out.
    await retryTask(store, 't7');
    await same('after a retry from the history');
    await store.updateWorking((s) => {
      const t7 = findTask(s, 't7');
      setTaskState(t7, 'RUNNING');
      setTaskState(t7, 'CANCELED');
      priced(s, 151, 180);
    });
    await same('after the retried task left again');
    // A run added to a finished task of the history: its record is written again, at the history's end.
    await store.update((s) => {
      // t159: among the newest of the history, so its first run is among its lane's samples already.
      const [run] = taskWithRun(159, 'DONE').runs;
      s.runs.push({ ...run!, id: 't159.2', lane: 'lane-2', usage: { inputTokens: 1, outputTokens: 1, costUsd: 9 } });
    });
    await same('after a run was added to a history task');
    // A removed finished task's runs no longer count.
    await store.update((s) => {
      s.tasks = s.tasks.filter((t) => t.id !== 't149' && t.id !== 't3');
      s.runs = s.runs.filter((r) => r.taskId !== 't149' && r.taskId !== 't3');
    });
    await same('after removals');
    assert.notDeepEqual(laneCosts(await store.read()), {}, 'the lanes have estimates');
    // A working set whose runs were replaced (a page of finished tasks put in, as status does) is no longer one.
    const recent = await store.readWorking();
    assert.ok(workingOnlyInfo(recent));
    recent.runs = recent.runs.slice(1);
    assert.equal(workingOnlyInfo(recent), undefined);
  });

  it('a state.json from before the samples gets them from the history at its next update', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => priced(s, 1, 80));
    const whole = laneCosts(await store.read());
    const file = JSON.parse(await readFile(stateFile(), 'utf8'));
    assert.equal(file.version, 3);
    delete file.historySamples;
    file.version = 2;
    await writeFile(stateFile(), JSON.stringify(file));
    const old = await ProjectStore.open(tmp.dir);
    assert.equal(
      workingOnlyInfo(await old.readWorking()),
      undefined,
      'a read alone neither reads the history nor marks',
    );
    await old.updateWorking((s) => addTasks(s, 81, 81, 'READY'));
    assert.deepEqual(laneCosts(await (await ProjectStore.open(tmp.dir)).readWorking()), whole);
    const upgraded = JSON.parse(await readFile(stateFile(), 'utf8'));
    assert.ok(upgraded.historySamples, 'written with the next update');
    assert.equal(upgraded.version, 3);
  });

  it('finds tasks wherever they are, reading the history only as far as needed', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => addTasks(s, 1, 60, 'FAILED'));
    await store.update((s) => addTasks(s, 61, 62, 'READY'));
    const found = await (await ProjectStore.open(tmp.dir)).findFinished(['t62', 't39', 't1', 'nope']);
    assert.deepEqual(
      [...found].map(([id, t]) => `${id}:${t.state}`),
      ['t62:READY', 't39:FAILED', 't1:FAILED'],
    );
    await retryTask(store, 't5');
    assert.equal((await store.findFinished(['t5'])).get('t5')?.state, 'READY', 'the working set shadows the history');
  });
});

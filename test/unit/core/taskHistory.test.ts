import assert from 'node:assert/strict';
import { appendFile, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { retryTask } from '../../../src/core/engine/commands/taskCommands';
import { emptyProjectState } from '../../../src/core/store/projectState';
import { addTasks } from '../../helpers/finishedTasks';
import { makeTempDir } from '../../helpers/tempRepo';

describe('ProjectStore history', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.cleanup());

  const stateFile = () => join(tmp.dir, '.switchyard', 'state.json');
  const historyDir = () => join(tmp.dir, '.switchyard', 'history');
  const raw = async () => JSON.parse(await readFile(stateFile(), 'utf8'));
  const historyLines = async () => {
    const files = (await readdir(historyDir())).filter((f) => f.endsWith('.jsonl')).sort();
    const texts = await Promise.all(files.map((f) => readFile(join(historyDir(), f), 'utf8')));
    return texts.join('').split('\n').filter(Boolean);
  };
  const ids = (tasks: { id: string }[]) => tasks.map((t) => t.id);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `t${from + i}`);

  it('keeps the unfinished and the newest 20 finished in state.json, the rest in the history', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => addTasks(s, 1, 45, 'DONE'));
    await store.update((s) => addTasks(s, 46, 50, 'READY'));
    const file = await raw();
    assert.equal(file.version, 3);
    assert.deepEqual(ids(file.tasks), range(26, 50));
    assert.equal(file.runs.length, 20);
    assert.equal((await historyLines()).length, 25);
    const fresh = await ProjectStore.open(tmp.dir);
    const state = await fresh.read();
    assert.deepEqual(ids(state.tasks), range(1, 50));
    assert.equal(state.runs.length, 45);
    assert.deepEqual(await fresh.read(), await store.read(), 'the writer and a fresh reader see the same state');
    assert.deepEqual(ids((await fresh.readWorking()).tasks), range(26, 50));
  });

  it('pages through the finished tasks newest first, each once', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => addTasks(s, 1, 45, 'DONE'));
    await store.update((s) => addTasks(s, 46, 47, 'READY'));
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page = await store.listFinished({ limit: 10, ...(before ? { before } : {}) });
      seen.push(...ids(page.tasks));
      assert.deepEqual(
        page.runs.map((r) => r.taskId),
        ids(page.tasks),
        'each page carries its tasks runs',
      );
      before = page.next;
      pages++;
    } while (before);
    assert.equal(pages, 5);
    assert.deepEqual(seen, range(1, 45).reverse());
  });

  it('rolls over to a new segment past 1 MiB; reads and pages cross segments', async () => {
    const store = await ProjectStore.open(tmp.dir);
    for (let from = 1; from <= 2500; from += 500) await store.update((s) => addTasks(s, from, from + 499, 'DONE'));
    const segments = (await readdir(historyDir())).filter((f) => f.endsWith('.jsonl'));
    assert.ok(segments.length >= 2, `segments: ${segments.join(', ')}`);
    assert.deepEqual(ids((await (await ProjectStore.open(tmp.dir)).read()).tasks), range(1, 2500));
    const all = await store.listFinished({ limit: 2500 });
    assert.deepEqual(ids(all.tasks), range(1, 2500).reverse());
    assert.equal(all.next, undefined);
  });

  it('a retry brings a FAILED task back from the history to the working set', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => addTasks(s, 1, 30, 'FAILED'));
    assert.ok(!ids((await raw()).tasks).includes('t3'), 't3 is in the history');
    const task = await retryTask(store, 't3');
    assert.equal(task.state, 'READY');
    const file = await raw();
    assert.equal(file.tasks.find((t: { id: string }) => t.id === 't3')?.state, 'READY');
    assert.ok(
      file.runs.some((r: { id: string }) => r.id === 't3.1'),
      'its runs came along',
    );
    const fresh = await ProjectStore.open(tmp.dir);
    const state = await fresh.read();
    assert.deepEqual(
      state.tasks.filter((t) => t.id === 't3').map((t) => t.state),
      ['READY'],
      'the task shows once, as retried',
    );
    assert.equal(state.tasks.length, 30);
    const finished: string[] = [];
    for (let page = await fresh.listFinished({ limit: 100 }); ; ) {
      finished.push(...ids(page.tasks));
      if (!page.next) break;
      page = await fresh.listFinished({ limit: 100, before: page.next });
    }
    assert.equal(finished.length, 29);
    assert.ok(!finished.includes('t3'));
    // Finished again and pushed out by newer ones, its newest record is the one that counts.
    await store.update((s) => {
      const t3 = s.tasks.find((t) => t.id === 't3')!;
      t3.state = 'CANCELED';
      addTasks(s, 31, 60, 'DONE');
    });
    const after = await (await ProjectStore.open(tmp.dir)).read();
    assert.deepEqual(
      after.tasks.filter((t) => t.id === 't3').map((t) => t.state),
      ['CANCELED'],
    );
    assert.equal(after.tasks.length, 60);
  });

  it('migrates a state.json from before the history on open, after keeping a copy', async () => {
    const old = emptyProjectState();
    addTasks(old, 1, 40, 'DONE');
    addTasks(old, 41, 60, 'READY');
    const text = `${JSON.stringify(old, null, 2)}\n`;
    await ProjectStore.open(tmp.dir);
    await writeFile(stateFile(), text);
    const store = await ProjectStore.open(tmp.dir);
    const backups = (await readdir(join(tmp.dir, '.switchyard'))).filter((f) => f.includes('.v1-'));
    assert.equal(backups.length, 1);
    assert.equal(await readFile(join(tmp.dir, '.switchyard', backups[0]!), 'utf8'), text, 'the copy is the old file');
    assert.deepEqual(ids((await raw()).tasks), range(21, 60));
    assert.equal((await historyLines()).length, 20);
    const state = await store.read();
    assert.deepEqual(state.tasks, old.tasks);
    assert.deepEqual(state.runs, old.runs);
  });

  it('a migration cut short (torn history, old state.json) is done again whole on the next open', async () => {
    const old = emptyProjectState();
    addTasks(old, 1, 40, 'DONE');
    addTasks(old, 41, 45, 'READY');
    const text = `${JSON.stringify(old, null, 2)}\n`;
    await ProjectStore.open(tmp.dir);
    await writeFile(stateFile(), text);
    await ProjectStore.open(tmp.dir);
    // What a crash after part of the append leaves: the copy, a torn history, the old state.json.
    const segment = join(historyDir(), '000001.jsonl');
    const whole = await readFile(segment, 'utf8');
    await writeFile(segment, whole.slice(0, Math.floor(whole.length / 2)));
    await writeFile(stateFile(), text);
    const store = await ProjectStore.open(tmp.dir);
    assert.equal(await readFile(segment, 'utf8'), whole, 'the history is written again, not appended to');
    assert.equal((await readdir(join(tmp.dir, '.switchyard'))).filter((f) => f.includes('.v1-')).length, 1);
    assert.deepEqual((await store.read()).tasks, old.tasks);
  });

  it('bytes beyond the committed mark are ignored by readers and cut by the next writer', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => addTasks(s, 1, 30, 'DONE'));
    const segment = join(historyDir(), '000001.jsonl');
    const committed = (await stat(segment)).size;
    assert.equal((await raw()).history.offset, committed);
    await appendFile(segment, '{"task": {"id": "half a reco');
    assert.equal((await (await ProjectStore.open(tmp.dir)).read()).tasks.length, 30);
    await store.update((s) => addTasks(s, 31, 32, 'DONE'));
    const lines = await historyLines();
    assert.equal(lines.length, 12);
    for (const line of lines) JSON.parse(line);
    assert.equal((await stat(segment)).size, (await raw()).history.offset);
  });

  it('another process sees what one appends, reading only the new part', async () => {
    const a = await ProjectStore.open(tmp.dir);
    const b = await ProjectStore.open(tmp.dir);
    await a.update((s) => addTasks(s, 1, 25, 'DONE'));
    assert.equal((await b.read()).tasks.length, 25);
    await a.update((s) => addTasks(s, 26, 60, 'DONE'));
    await b.update((s) => addTasks(s, 61, 61, 'READY'));
    const fromA = await a.read();
    assert.deepEqual(ids(fromA.tasks).sort(), range(1, 61).sort());
    assert.deepEqual(await b.read(), fromA);
  });
});

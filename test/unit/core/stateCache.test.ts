import assert from 'node:assert/strict';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { isSwitchyardError } from '../../../src/core/errors';
import { Task } from '../../../src/core/model/task';
import { makeTempDir } from '../../helpers/tempRepo';

const task = (id: string): Task =>
  Task.parse({
    id,
    spec: { title: `task ${id}`, spec: 'a change' },
    state: 'READY',
    baseCommit: 'abc',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    attempts: 0,
    generation: 0,
  });

/**
 * `state.json` is not read again while its stamp is unchanged and trusted, and an update validates only what differs
 * from the last valid working set: every change by another writer still shows on the next read, and an invalid change
 * is still refused whole.
 */
describe('ProjectStore caches', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let file: string;
  beforeEach(async () => {
    tmp = await makeTempDir();
    file = join(tmp.dir, '.switchyard', 'state.json');
  });
  afterEach(async () => tmp.cleanup());

  const age = async (): Promise<Date> => {
    const past = new Date(Date.now() - 60_000);
    await utimes(file, past, past);
    return past;
  };

  it("another writer's update shows on the next read, right after it and once the file is old", async () => {
    const mine = await ProjectStore.open(tmp.dir);
    const other = await ProjectStore.open(tmp.dir);
    await mine.update((s) => {
      s.tasks.push(task('a'));
    });
    await other.update((s) => {
      s.tasks.push(task('b'));
    });
    assert.deepEqual(
      (await mine.read()).tasks.map((t) => t.id),
      ['a', 'b'],
    );
    await age();
    assert.equal((await mine.readWorking()).tasks.length, 2, 'read once the stamp is trusted');
    await other.update((s) => {
      s.tasks.push(task('c'));
    });
    assert.deepEqual(
      (await mine.readWorking()).tasks.map((t) => t.id),
      ['a', 'b', 'c'],
    );
  });

  it('an edit by hand in place, same size and the mtime put back, shows on the next read', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => {
      s.tasks.push(task('a'));
    });
    const past = await age();
    assert.equal((await store.read()).tasks[0]!.spec.title, 'task a');
    assert.equal((await store.read()).tasks[0]!.spec.title, 'task a', 'again, from the cache');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"task a"', '"task z"'));
    await utimes(file, past, past);
    assert.equal((await store.read()).tasks[0]!.spec.title, 'task z');
  });

  it('refuses an invalid change whole, naming the path, when only one task changed; writes nothing', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => {
      s.tasks.push(task('a'), task('b'));
    });
    const before = await readFile(file, 'utf8');
    await assert.rejects(
      store.update((s) => {
        (s.tasks[1] as { state: string }).state = 'NOT_A_STATE';
      }),
      (e: unknown) => isSwitchyardError(e, 'invalid-input') && /tasks\.1\.state/.test(e.message),
    );
    await assert.rejects(
      store.update((s) => {
        (s.settings.wip as { RUNNING: unknown }).RUNNING = 'many';
      }),
      (e: unknown) => isSwitchyardError(e, 'invalid-input') && /settings\.wip\.RUNNING/.test(e.message),
    );
    assert.equal(await readFile(file, 'utf8'), before);
    await store.update((s) => {
      s.tasks[0]!.spec.title = 'renamed';
    });
    const reopened = await ProjectStore.open(tmp.dir);
    assert.deepEqual(
      (await reopened.read()).tasks.map((t) => [t.id, t.spec.title, t.state]),
      [
        ['a', 'renamed', 'READY'],
        ['b', 'task b', 'READY'],
      ],
    );
  });

  it('fills the defaults of a changed task as a whole validation would', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => {
      s.tasks.push(task('a'));
    });
    await store.update((s) => {
      const { priority: _p, ...rest } = s.tasks[0]!.spec;
      s.tasks[0]!.spec = rest as Task['spec'];
    });
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { tasks: Task[] };
    assert.equal(parsed.tasks[0]!.spec.priority, 50, 'the default filled in');
    assert.equal((await store.read()).tasks[0]!.spec.priority, 50);
  });
});

import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { isSwitchyardError } from '../../../src/core/errors';
import { addTasks } from '../../helpers/finishedTasks';
import { makeTempDir } from '../../helpers/tempRepo';

describe('ProjectStore', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    tmp = await makeTempDir();
  });
  afterEach(async () => tmp.cleanup());

  it('creates a self-ignoring .switchyard folder with a default state', async () => {
    const store = await ProjectStore.open(tmp.dir);
    assert.equal(await readFile(join(tmp.dir, '.switchyard', '.gitignore'), 'utf8'), '*\n!config.json\n');
    const state = await store.read();
    assert.equal(state.settings.defaultLane, 'command');
    assert.deepEqual(state.tasks, []);
  });

  it('persists updates atomically and leaves no temp files', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => {
      s.settings.defaultLane = 'other';
    });
    const reopened = await ProjectStore.open(tmp.dir);
    assert.equal((await reopened.read()).settings.defaultLane, 'other');
    const files = await readdir(join(tmp.dir, '.switchyard'));
    assert.deepEqual(
      files.filter((f) => f.endsWith('.tmp')),
      [],
    );
  });

  it('serializes concurrent updates so none is lost, two stores on one folder taking turns in one hold', async () => {
    const a = await ProjectStore.open(tmp.dir);
    const b = await ProjectStore.open(tmp.dir);
    // Queued at once, the turns share holds of the lock file: each store must see what the other wrote under it.
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const store = i % 2 ? a : b;
        const change = (s: { nextTaskNumber: number }) => {
          s.nextTaskNumber += 1;
        };
        const done = i % 4 < 2 ? store.update(change) : store.updateWorking(change);
        return done.then(async () => seen.push((await store.readWorking()).nextTaskNumber));
      }),
    );
    assert.equal((await a.read()).nextTaskNumber, 21);
    assert.equal((await b.readWorking()).nextTaskNumber, 21);
    assert.equal(Math.max(...seen), 21);
  });

  it('writes nothing for an update that changes nothing; a new order, a retried failed write: written', async () => {
    const store = await ProjectStore.open(tmp.dir);
    const file = join(tmp.dir, '.switchyard', 'state.json');
    await store.update((s) => {
      s.settings.defaultLane = 'other';
      addTasks(s, 1, 2, 'READY');
    });
    const before = await readFile(file, 'utf8');
    const revision = (await store.read()).revision;
    await store.update((s) => {
      s.settings.defaultLane = 'other';
    });
    await store.updateWorking(() => undefined);
    assert.equal(await readFile(file, 'utf8'), before, 'nothing written');
    assert.equal((await store.read()).revision, revision);

    await store.updateWorking((s) => {
      s.tasks.reverse();
    });
    assert.deepEqual(
      (await (await ProjectStore.open(tmp.dir)).read()).tasks.map((t) => t.id),
      ['t2', 't1'],
      'the same tasks in a new order are written',
    );

    // The temporary file's name taken by a folder: the write fails, and the same change tried again is written.
    const temp = `${file}.${process.pid}.tmp`;
    await mkdir(temp);
    await assert.rejects(
      store.update((s) => {
        s.settings.defaultLane = 'third';
      }),
      /EISDIR/,
    );
    await rmdir(temp);
    await store.update((s) => {
      s.settings.defaultLane = 'third';
    });
    assert.equal((await (await ProjectStore.open(tmp.dir)).read()).settings.defaultLane, 'third');
  });

  it('refuses a corrupt state file: names the file and problem, keeps a backup, never overwrites', async () => {
    const store = await ProjectStore.open(tmp.dir);
    await store.update((s) => {
      s.settings.defaultLane = 'precious';
    });
    const file = join(tmp.dir, '.switchyard', 'state.json');
    const corrupt = (await readFile(file, 'utf8')).slice(0, 40);
    await writeFile(file, corrupt);
    await assert.rejects(ProjectStore.open(tmp.dir), (e: unknown) => {
      assert.ok(isSwitchyardError(e, 'store-corrupt'));
      assert.ok(e.message.includes(file), 'names the file');
      assert.match(e.message, /not valid JSON/);
      assert.match(e.message, /will not overwrite it/);
      return true;
    });
    await assert.rejects(
      store.update((s) => {
        s.settings.defaultLane = 'clobber';
      }),
      /not valid JSON/,
    );
    assert.equal(await readFile(file, 'utf8'), corrupt, 'the file is untouched');
    const backups = (await readdir(join(tmp.dir, '.switchyard'))).filter((f) => f.includes('.corrupt-'));
    assert.ok(backups.length >= 1, 'a backup copy is kept');
  });

  it('refuses a state file of the wrong shape, naming the field', async () => {
    await ProjectStore.open(tmp.dir);
    const file = join(tmp.dir, '.switchyard', 'state.json');
    const state = JSON.parse(await readFile(file, 'utf8'));
    state.tasks = [{ id: 't1' }];
    await writeFile(file, JSON.stringify(state));
    await assert.rejects(ProjectStore.open(tmp.dir), /does not match the expected shape: tasks\.0\.spec/);
  });
});

import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { isSwitchyardError } from '../../../src/core/errors';
import { PostgresBackend } from '../../../src/core/backend/postgres/postgresBackend';
import { Project } from '../../../src/core/project/project';
import type { ProjectState } from '../../../src/core/store/projectState';
import { registryWithBuiltins } from '../../../src/lanes/builtinLanes';
import { sqlRows as sql, startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { makeTempRepo } from '../../helpers/tempRepo';

/**
 * The state with what legitimately differs between two repositories and two runs blanked: times, commits, paths,
 * owners.
 */
function comparable(state: ProjectState, root: string): unknown {
  return JSON.parse(JSON.stringify(state).split(root).join('<repo>'), (key, value: unknown) => {
    if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(value)) return '<time>';
    if (typeof value === 'string' && /^[0-9a-f]{40}$/.test(value)) return '<commit>';
    if (key === 'durationMs' || key === 'owner' || key === 'inputHash') return `<${key}>`;
    return value;
  });
}

describe('PostgreSQL backend: state store', function () {
  this.timeout(60_000);
  let server: PostgresServer;
  let dbCount = 0;
  const closers: (() => Promise<void>)[] = [];
  const fresh = () => server.createDatabase(`sy_state_${++dbCount}`);
  async function backend(url: string, project = 'p'): Promise<PostgresBackend> {
    const b = await PostgresBackend.open({ kind: 'postgres', url, project });
    closers.push(() => b.close());
    return b;
  }
  async function repo() {
    const r = await makeTempRepo();
    closers.push(r.cleanup);
    return r;
  }
  async function project(dir: string, url?: string, name = 'p'): Promise<Project> {
    const p = await Project.open(dir, {
      registry: registryWithBuiltins(),
      ...(url ? { backend: { kind: 'postgres', url, project: name } } : {}),
    });
    closers.unshift(() => p.close());
    return p;
  }

  before(async () => {
    server = await startPostgres({ fsync: false });
  });
  after(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('a project driven through the same operations reads back the same state as on the files backend', async () => {
    const url = await fresh();
    const [filesRepo, pgRepo] = [await repo(), await repo()];
    const states: unknown[] = [];
    for (const [dir, p] of [
      [filesRepo.dir, await project(filesRepo.dir)],
      [pgRepo.dir, await project(pgRepo.dir, url)],
    ] as const) {
      await p.settings.update((s) => {
        s.laneSettings.command = { command: 'echo hi >> src/a.txt' };
        s.retryCaps.command = 3;
      });
      await p.tasks.addMany([
        { title: 'one', key: 'a', files: ['src/a.txt'], acceptance: 'true' },
        { title: 'two', dependsOn: ['a'], priority: 70 },
      ]);
      await p.tasks.add({ title: 'three', draft: true });
      await p.tasks.cancel('t3');
      const summary = await p.runQueue();
      assert.equal(summary.runs.length, 2);
      const state = await p.state();
      assert.deepEqual(
        state.tasks.map((t) => `${t.id}:${t.state}`),
        ['t1:DONE', 't2:DONE', 't3:CANCELED'],
      );
      states.push(comparable(state, dir));
    }
    assert.deepEqual(states[1], states[0]);
  });

  it('updates from two processes racing 50 increments and 20 task adds lose nothing', async () => {
    const url = await fresh();
    const [a, b] = [await backend(url), await backend(url)];
    const bump = (x: PostgresBackend) => x.state.update((s) => s.nextTaskNumber++);
    const seen = await Promise.all(Array.from({ length: 50 }, (_, i) => bump(i % 2 ? a : b)));
    assert.deepEqual(
      [...seen].sort((x, y) => x - y),
      Array.from({ length: 50 }, (_, i) => i + 1),
      'each update saw the one before it',
    );
    for (const x of [a, b]) {
      const state = await x.state.read();
      assert.equal(state.nextTaskNumber, 51);
      assert.equal(state.revision, 50);
    }

    const dir = (await repo()).dir;
    const [p, q] = [await project(dir, url), await project(dir, url)];
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? p : q).tasks.add({ title: `task ${i}` })));
    const ids = (await a.state.read()).tasks.map((t) => t.id);
    assert.deepEqual([...ids].sort(), Array.from({ length: 20 }, (_, i) => `t${51 + i}`).sort());
    assert.deepEqual(
      new Set((await p.state()).tasks.map((t) => t.spec.title)),
      new Set(Array.from({ length: 20 }, (_, i) => `task ${i}`)),
    );
  });

  it('a second process sees additions, changes and removals through its cache, and each update adds 1 to the revision', async () => {
    const url = await fresh();
    const [a, b] = [await backend(url), await backend(url)];
    const dir = (await repo()).dir;
    const pa = await project(dir, url);
    assert.equal((await b.state.read()).revision, 0);

    await pa.tasks.addMany([{ title: 'one' }, { title: 'two' }, { title: 'three' }]);
    let seen = await b.state.read();
    assert.equal(seen.revision, 1);
    assert.deepEqual(
      seen.tasks.map((t) => `${t.id}:${t.spec.title}:${t.state}`),
      ['t1:one:READY', 't2:two:READY', 't3:three:READY'],
    );

    await pa.tasks.cancel('t2');
    await pa.settings.update((s) => {
      s.leaseMs = 1234;
    });
    seen = await b.state.read();
    assert.equal(seen.revision, 3);
    assert.equal(seen.tasks[1]!.state, 'CANCELED');
    assert.equal(seen.settings.leaseMs, 1234);

    // A removal and a move: positions change and a row is deleted (the cache reloads everything).
    await a.state.update((s) => {
      s.tasks = [s.tasks[2]!, s.tasks[0]!];
    });
    seen = await b.state.read();
    assert.equal(seen.revision, 4);
    assert.deepEqual(
      seen.tasks.map((t) => t.id),
      ['t3', 't1'],
    );
    assert.deepEqual(seen, await a.state.read());

    // B writes on top of what it cached; A and a newcomer read the same.
    await b.state.update((s) => {
      s.tasks[1]!.spec.priority = 99;
    });
    const fresh3 = await backend(url);
    for (const x of [a, b, fresh3]) {
      const state = await x.state.read();
      assert.equal(state.revision, 5);
      assert.deepEqual(
        state.tasks.map((t) => `${t.id}:${t.spec.priority}`),
        ['t3:50', 't1:99'],
      );
    }
    assert.deepEqual(await sql(url, 'SELECT id, position, rev::int FROM sy_tasks ORDER BY position'), [
      { id: 't3', position: 0, rev: 4 },
      { id: 't1', position: 1, rev: 5 },
    ]);
    assert.deepEqual(
      await sql(url, 'SELECT revision::int FROM sy_revisions ORDER BY revision'),
      [1, 2, 3, 4, 5].map((revision) => ({ revision })),
    );
  });

  it('a change that throws or leaves an invalid state writes nothing', async () => {
    const url = await fresh();
    const a = await backend(url);
    await a.state.update((s) => {
      s.nextTaskNumber = 5;
    });
    await assert.rejects(
      a.state.update((s, leases) => {
        s.nextTaskNumber = 6;
        leases.take('r1', 'me', 60_000);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    await assert.rejects(
      a.state.update((s) => {
        s.nextTaskNumber = 0;
      }),
      (e: unknown) => isSwitchyardError(e, 'invalid-input') && /nextTaskNumber/.test(e.message),
    );
    for (const x of [a, await backend(url)]) {
      const state = await x.state.read();
      assert.equal(state.nextTaskNumber, 5);
      assert.equal(state.revision, 1);
    }
    assert.deepEqual(await sql(url, 'SELECT run_id FROM sy_run_leases'), []);
  });

  it('a corrupt task row fails reads and updates with store-corrupt naming sy_tasks and the task', async () => {
    const url = await fresh();
    const dir = (await repo()).dir;
    const p = await project(dir, url);
    await p.tasks.addMany([{ title: 'fine' }, { title: 'soon broken' }]);
    await sql(url, `UPDATE sy_tasks SET doc = '{"bad":1}' WHERE id = 't2'`);
    const corrupt = (e: unknown) => {
      assert.ok(isSwitchyardError(e, 'store-corrupt'), inspect(e));
      assert.match(e.message, /^sy_tasks row "t2" of project "p" does not match the expected shape/);
      return true;
    };
    const b = await backend(url);
    await assert.rejects(b.state.read(), corrupt);
    await assert.rejects(
      b.state.update((s) => {
        s.nextTaskNumber++;
      }),
      corrupt,
    );
    assert.equal(
      (await sql<{ revision: number }>(url, 'SELECT revision::int FROM sy_projects'))[0]!.revision,
      1,
      'nothing was written',
    );
  });

  it('projects sharing a database are isolated', async () => {
    const url = await fresh();
    const dir = (await repo()).dir;
    const [p1, p2] = [await project(dir, url, 'alpha'), await project(dir, url, 'beta')];
    await p1.tasks.addMany([{ title: 'alpha one' }, { title: 'alpha two' }]);
    await p1.settings.update((s) => {
      s.defaultLane = 'codex';
    });
    assert.deepEqual((await p2.state()).tasks, []);
    await p2.tasks.add({ title: 'beta one' });
    const [s1, s2] = [await p1.state(), await p2.state()];
    assert.deepEqual(
      s1.tasks.map((t) => `${t.id}:${t.spec.title}`),
      ['t1:alpha one', 't2:alpha two'],
    );
    assert.deepEqual(
      s2.tasks.map((t) => `${t.id}:${t.spec.title}`),
      ['t1:beta one'],
    );
    assert.deepEqual([s1.revision, s1.nextTaskNumber, s1.settings.defaultLane], [2, 3, 'codex']);
    assert.deepEqual([s2.revision, s2.nextTaskNumber, s2.settings.defaultLane], [1, 2, 'command']);
    await sql(url, `UPDATE sy_tasks SET doc = '{"bad":1}' WHERE project = 'alpha'`);
    assert.equal(
      (await (await backend(url, 'beta')).state.read()).tasks.length,
      1,
      'damage in one project does not reach the other',
    );
  });
});

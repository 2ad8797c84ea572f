import assert from 'node:assert/strict';
import { PostgresBackend } from '../../../src/core/backend/postgres/postgresBackend';
import { addTasks } from '../../helpers/finishedTasks';
import { sqlRows as sql, startPostgres, type PostgresServer } from '../../helpers/postgresServer';

describe('PostgreSQL backend: the working set and the pages of finished tasks', function () {
  this.timeout(60_000);
  let server: PostgresServer;
  let backend: PostgresBackend | undefined;
  let url: string;

  before(async () => {
    server = await startPostgres({ fsync: false });
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    url = await server.createDatabase(`sy_history_${Date.now()}`);
    backend = await PostgresBackend.open({ kind: 'postgres', url, project: 'p' });
  });
  afterEach(async () => {
    await backend?.close();
  });

  const ids = (tasks: { id: string }[]) => tasks.map((t) => t.id);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `t${from + i}`);

  it('reads the unfinished tasks with their runs, and pages through the finished newest first, each once', async () => {
    const state = backend!.state;
    await state.update((s) => {
      addTasks(s, 1, 25, 'DONE');
      addTasks(s, 26, 28, 'FAILED');
      addTasks(s, 29, 30, 'READY');
      addTasks(s, 31, 31, 'RUNNING');
    });
    const working = await state.readWorking();
    assert.deepEqual(ids(working.tasks), range(29, 31));
    assert.deepEqual(
      working.runs.map((r) => r.id),
      ['t31.1'],
    );
    assert.equal(working.settings.defaultLane, 'command');
    assert.equal(working.revision, (await state.read()).revision);
    const seen: string[] = [];
    let before: string | undefined;
    do {
      const page = await state.listFinished({ limit: 10, ...(before ? { before } : {}) });
      assert.deepEqual(
        page.runs.map((r) => r.taskId),
        ids(page.tasks),
      );
      seen.push(...ids(page.tasks));
      before = page.next;
    } while (before);
    assert.deepEqual(seen, range(1, 28).reverse());
  });

  it('the pages and the working set are read through indexes, not a scan of every task', async () => {
    await backend!.state.update((s) => addTasks(s, 1, 50, 'DONE'));
    const indexes = (
      await sql<{ indexname: string }>(url, `SELECT indexname FROM pg_indexes WHERE tablename = $1`, ['sy_tasks'])
    ).map((r) => r.indexname);
    assert.ok(indexes.includes('sy_tasks_finished') && indexes.includes('sy_tasks_working'), indexes.join(', '));
    // With sequential scans priced out (for new connections to this database), the plan shows the index a query uses.
    const database = new URL(url).pathname.slice(1);
    await sql(url, `ALTER DATABASE "${database}" SET enable_seqscan = off`);
    const plan = async (query: string, params: unknown[]) =>
      (await sql<{ 'QUERY PLAN': string }>(url, `EXPLAIN ${query}`, params)).map((r) => r['QUERY PLAN']).join('\n');
    const finished = await plan(
      `SELECT t.doc FROM sy_tasks t WHERE t.project = $1 AND t.state IN ('DONE', 'FAILED', 'CANCELED')
        ORDER BY t.position DESC LIMIT 11`,
      ['p'],
    );
    assert.match(finished, /sy_tasks_finished/);
    const working = await plan(
      `SELECT t.doc FROM sy_tasks t WHERE t.project = $1 AND t.state NOT IN ('DONE', 'FAILED', 'CANCELED')
        ORDER BY t.position`,
      ['p'],
    );
    assert.match(working, /sy_tasks_working/);
  });
});

import assert from 'node:assert/strict';
import { runCli } from '../../helpers/runCli';
import { sqlRows as sql, startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { makeTempDir, makeTempRepo } from '../../helpers/tempRepo';

describe('PostgreSQL backend: the committed project config', function () {
  this.timeout(180_000);
  let server: PostgresServer;
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  let home: Awaited<ReturnType<typeof makeTempDir>>;

  before(async () => {
    server = await startPostgres({ fsync: false });
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    repo = await makeTempRepo();
    home = await makeTempDir();
  });
  afterEach(async () => {
    await repo.cleanup();
    await home.cleanup();
  });

  it('reads .switchyard/config.json from the repository; a local override alone goes into the state', async () => {
    const url = await server.createDatabase('sy_config');
    const env = {
      ...process.env,
      XDG_CONFIG_HOME: home.dir,
      SWITCHYARD_BACKEND: 'postgres',
      SWITCHYARD_DATABASE_URL: url,
      SWITCHYARD_PROJECT: 'team',
    };
    const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir], { env });
    assert.equal((await cli('config', 'set', 'integration.targetBranch', 'team/int')).code, 0);
    assert.equal((await cli('config', 'set', 'wip.RUNNING', '1')).code, 0);
    await repo.git('add', '.switchyard');
    await repo.git('commit', '-m', 'team config');
    const lanes = await cli('lanes', 'set', 'command', 'command=echo "$SWITCHYARD_TASK_ID" > done.txt');
    assert.equal(lanes.code, 0, lanes.err);
    assert.equal((await cli('task', 'add', '--title', 'one')).code, 0);
    const run = await cli('run');
    assert.equal(run.code, 0, run.out + run.err);
    assert.equal((await repo.git('show', 'team/int:done.txt')).trim(), 't1');
    assert.match((await cli('config', 'get', '--explain')).out, /^wip\.RUNNING = 1 {2}\(committed/m);

    assert.equal((await cli('config', 'set', 'wip.RUNNING', '3', '--local')).code, 0);
    assert.match((await cli('config', 'get', '--explain')).out, /^wip\.RUNNING = 3 {2}\(local override\)$/m);
    const [row] = await sql<{ settings: Record<string, Record<string, unknown>> }>(
      url,
      "SELECT settings FROM sy_projects WHERE project = 'team'",
    );
    assert.equal(row?.settings.wip?.RUNNING, 3);
    assert.deepEqual(row?.settings.localOverrides, ['laneSettings.command.command', 'wip.RUNNING']);
    assert.equal(row?.settings.integration?.targetBranch, 'switchyard/integration', 'the committed value stays out');
    assert.deepEqual(row?.settings.laneSettings, { command: { command: 'echo "$SWITCHYARD_TASK_ID" > done.txt' } });
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FilesLeaseStore, filesLeaseView } from '../../../src/core/backend/filesLeaseStore';
import type { LeaseStore, LeaseView } from '../../../src/core/lease/leaseStore';
import { PostgresBackend } from '../../../src/core/backend/postgres/postgresBackend';
import type { ProcessGroupRecord } from '../../../src/core/process/processGroupRecord';
import { startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { makeTempDir } from '../../helpers/tempRepo';

const GROUP: ProcessGroupRecord = {
  host: 'box-a',
  bootId: 'e758a58a-afb7-4a69-b3d1-a71592b78f94',
  pgid: 4242,
  startTicks: 36688,
};

/**
 * The process groups a run's owner has alive are recorded with its lease, on
 * both backends: a renewal keeps them, the process taking the run over reads
 * them in its transaction (to end them) and starts with none of its own.
 */
async function checkLeaseGroups(
  leases: LeaseStore,
  inTransaction: <T>(fn: (view: LeaseView) => T) => Promise<T>,
): Promise<void> {
  await leases.acquire('t1.1', 'box-a/1/x', 60_000);
  await leases.recordGroups('t1.1', 'box-a/1/x', [GROUP]);
  await leases.renew('t1.1', 'box-a/1/x', 60_000);
  await leases.recordGroups('t1.1', 'box-b/2/y', []);
  assert.deepEqual(
    await inTransaction((view) => view.get('t1.1')?.groups),
    [GROUP],
    'kept by a renewal; another owner cannot change them',
  );
  await inTransaction((view) => view.take('t1.1', 'box-b/2/y', 60_000));
  const taken = await inTransaction((view) => view.get('t1.1'));
  assert.equal(taken?.owner, 'box-b/2/y');
  assert.equal(taken?.groups, undefined, 'the new owner starts with no groups');
  await leases.recordGroups('t1.1', 'box-b/2/y', [{ ...GROUP, pgid: 99 }]);
  await leases.recordGroups('t1.1', 'box-b/2/y', []);
  assert.equal((await inTransaction((view) => view.get('t1.1')))?.groups, undefined, 'an empty list clears them');
}

describe('process groups recorded with run leases', function () {
  this.timeout(60_000);

  it('files backend: in runs/<run>/lease.json', async () => {
    const tmp = await makeTempDir();
    try {
      const leases = new FilesLeaseStore(tmp.dir, async (fn) => fn());
      await leases.acquire('t1.1', 'box-a/1/x', 60_000);
      await leases.recordGroups('t1.1', 'box-a/1/x', [GROUP]);
      assert.deepEqual(
        JSON.parse(readFileSync(join(tmp.dir, '.switchyard', 'runs', 't1.1', 'lease.json'), 'utf8')).groups,
        [GROUP],
      );
      await checkLeaseGroups(leases, async (fn) => fn(filesLeaseView(tmp.dir)));
    } finally {
      await tmp.cleanup();
    }
  });

  describe('PostgreSQL backend', () => {
    let server: PostgresServer;
    before(async () => {
      server = await startPostgres({ fsync: false });
    });
    after(async () => {
      await server?.stop();
    });

    it('in the groups column of sy_run_leases', async () => {
      const backend = await PostgresBackend.open({
        kind: 'postgres',
        url: await server.createDatabase('sy_lease_groups'),
        project: 'p',
      });
      try {
        await checkLeaseGroups(backend.leases, (fn) => backend.state.update((_state, view) => fn(view)));
      } finally {
        await backend.close();
      }
    });
  });
});

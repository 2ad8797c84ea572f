import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StateFromRepository } from '../../../src/core/backend/stateFromRepository';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('StateFromRepository (which of Switchyard’s own files git tracks)', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(async () => repo.cleanup());

  it('the committed config is not state; a force-added state is, as soon as the index says so', async () => {
    const check = new StateFromRepository(repo.dir);
    await mkdir(join(repo.dir, '.switchyard'), { recursive: true });
    await writeFile(join(repo.dir, '.switchyard', 'config.json'), '{"version":1}\n');
    await writeFile(join(repo.dir, '.switchyard', '.gitignore'), '*\n!config.json\n');
    await writeFile(join(repo.dir, '.switchyard', 'state.json'), '{}\n');
    await repo.git('add', '-f', '.switchyard/config.json', '.switchyard/.gitignore');
    await repo.git('commit', '-m', 'config');
    assert.deepEqual(await check.tracked(), []);
    // The same object, later (a pull or a checkout that brings a tracked state into an open project).
    await repo.git('add', '-f', '.switchyard/state.json');
    assert.deepEqual(await check.tracked(), ['.switchyard/state.json']);
    await repo.git('rm', '--cached', '-q', '.switchyard/state.json');
    assert.deepEqual(await check.tracked(), []);
  });

  it('a committed .switchyard symlink counts as state from the repository', async () => {
    await mkdir(join(repo.dir, 'elsewhere'));
    await writeFile(join(repo.dir, 'elsewhere', 'state.json'), '{}\n');
    await symlink('elsewhere', join(repo.dir, '.switchyard'));
    await repo.git('add', '.');
    await repo.git('commit', '-m', 'link');
    assert.deepEqual(await new StateFromRepository(repo.dir).tracked(), ['.switchyard']);
  });
});

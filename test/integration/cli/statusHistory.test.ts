import assert from 'node:assert/strict';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { addTasks } from '../../helpers/finishedTasks';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('switchyard status with a history', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
    const store = await ProjectStore.open(repo.dir);
    await store.update((s) => addTasks(s, 1, 60, 'DONE'));
    await store.update((s) => addTasks(s, 61, 62, 'READY'));
  });
  afterEach(async () => repo.cleanup());

  const rows = (out: string) => [...out.matchAll(/^(t\d+)\s+(DONE|READY)\s/gm)].map((m) => m[1]);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `t${from + i}`);

  it('shows the active tasks and the 10 newest finished, and says older ones were left out', async () => {
    const r = await runCli(['status', '--repo', repo.dir]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(rows(r.out), range(51, 62));
    assert.match(r.out, /older finished tasks not shown: `switchyard status --all`/);
  });

  it('--finished N shows N of them, --all every task, --json says whether any were left out', async () => {
    assert.deepEqual(rows((await runCli(['status', '--finished', '3', '--repo', repo.dir])).out), range(58, 62));
    const all = await runCli(['status', '--all', '--repo', repo.dir]);
    assert.deepEqual(rows(all.out), range(1, 62));
    assert.doesNotMatch(all.out, /not shown/);
    const json = JSON.parse((await runCli(['status', '--json', '--repo', repo.dir])).out);
    assert.equal(json.tasks.length, 12);
    assert.equal(json.olderFinishedOmitted, true);
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProjectStore } from '../../../src/core/backend/projectStore';
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
  const historyLines = async () => {
    const files = (await readdir(historyDir())).filter((f) => f.endsWith('.jsonl')).sort();
    const texts = await Promise.all(files.map((f) => readFile(join(historyDir(), f), 'utf8')));
    return texts.join('').split('\n').filter(Boolean);
  };

  it('a process killed while migrating leaves a project the next open reads whole', async function () {
    this.timeout(180_000);
    const old = emptyProjectState();
    addTasks(old, 1, 4000, 'DONE');
    addTasks(old, 4001, 4010, 'READY');
    await ProjectStore.open(tmp.dir);
    const text = `${JSON.stringify(old, null, 2)}\n`;
    const segment = join(historyDir(), '000001.jsonl');
    const store = join(process.cwd(), 'src/core/backend/projectStore.ts');
    let killedBeforeCommit = 0;
    for (let round = 0; round < 3 && killedBeforeCommit < 2; round++) {
      await rm(historyDir(), { recursive: true, force: true });
      await writeFile(stateFile(), text);
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import(${JSON.stringify(store)}).then((m) => m.ProjectStore.open(process.argv[1]))`,
          tmp.dir,
        ],
        { stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => child.on('exit', resolve));
      // Killed as soon as the history has grown: the append under way or done, state.json not replaced yet.
      while (child.exitCode === null) {
        const size = await stat(segment).then(
          (s) => s.size,
          () => 0,
        );
        if (size > 0) {
          child.kill('SIGKILL');
          break;
        }
        await new Promise((r) => setTimeout(r, 1));
      }
      await exited;
      if ((await readFile(stateFile(), 'utf8')) === text) killedBeforeCommit++;
      const reopened = await ProjectStore.open(tmp.dir);
      const state = await reopened.read();
      assert.deepEqual(state.tasks, old.tasks, `round ${round}: every task, once`);
      assert.equal((await historyLines()).length, 3980, `round ${round}: the history holds each finished task once`);
    }
    assert.ok(killedBeforeCommit >= 1, 'at least one process died between the append and the commit');
  });
});

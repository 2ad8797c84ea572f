import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { STATE_DIR } from '../../../src/core/store/stateDir';
import { queueCounts } from '../../../src/ui/project/queueCounts';
import { countsOf, readStateFile } from '../../../src/ui/project/stateFileCounts';
import { contextValues } from '../../../src/ui/views/contextKeyValues';
import { editState } from '../../helpers/editState';
import { makeTempRepo } from '../../helpers/tempRepo';

describe("the status bar's light reader of the state file", () => {
  it('counts what the project counts, from the file the files backend writes', async () => {
    const repo = await makeTempRepo();
    const project = await Project.open(repo.dir, { registry: new LaneRegistry() });
    try {
      const tasks = await project.tasks.addMany([
        { title: 'one' },
        { title: 'two' },
        { title: 'three' },
        { title: 'four' },
      ]);
      await project.tasks.cancel(tasks[3]!.id);
      await editState(repo.dir, (state) => {
        const first = state.tasks.find((t) => t.id === tasks[0]!.id)!;
        first.state = 'RUNNING';
      });
      const expected = queueCounts(await project.state());
      assert.deepEqual(
        expected,
        { running: 1, awaitingCi: 0, queued: 2 },
        'the project counts one running and two queued',
      );
      const text = await readFile(join(repo.dir, STATE_DIR, 'state.json'), 'utf8');
      assert.deepEqual(countsOf(text), expected);
      // The menus' context keys it can tell from the file are what the runtime's ContextKeys sets from the project.
      const light = readStateFile(text)!.contextKeys;
      const full = contextValues(await project.state(), undefined);
      assert.ok(Object.keys(light).length >= 5);
      for (const [key, value] of Object.entries(light)) assert.equal(value, full[key], key);
      await editState(repo.dir, (state) => {
        state.tasks.find((t) => t.id === tasks[1]!.id)!.state = 'DONE';
      });
      const done = readStateFile(await readFile(join(repo.dir, STATE_DIR, 'state.json'), 'utf8'))!.contextKeys;
      assert.equal(done['switchyard.hasDoneTask'], true);
      assert.equal(done['switchyard.hasRun'], false);
    } finally {
      await project.close();
      await repo.cleanup();
    }
  });

  it('gives up (undefined) on text that is not a state file it knows, so the project is opened instead', () => {
    assert.equal(countsOf('{"tasks": [{"state": '), undefined, 'cut JSON');
    assert.equal(countsOf('{"version": 9}'), undefined, 'no tasks array');
    assert.equal(countsOf('{"tasks": [{"id": "t1"}]}'), undefined, 'a task without a state');
    assert.equal(countsOf('null'), undefined);
    assert.deepEqual(countsOf('{"tasks": []}'), { running: 0, awaitingCi: 0, queued: 0 });
  });
});

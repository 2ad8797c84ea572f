import assert from 'node:assert/strict';
import { createCommandLane } from '../../../plugins/command';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { TaskHistory } from '../../../src/core/store/taskHistory';
import { makeTempRepo } from '../../helpers/tempRepo';

/** Counts calls of `Class.prototype[name]` while `fn` runs. */
async function counting<T>(targets: [object, string][], fn: () => Promise<T>): Promise<{ value: T; calls: number[] }> {
  const calls = targets.map(() => 0);
  const originals = targets.map(
    ([proto, name]) => (proto as Record<string, unknown>)[name] as (...a: unknown[]) => unknown,
  );
  targets.forEach(([proto, name], i) => {
    (proto as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      calls[i]! += 1;
      return originals[i]!.apply(this, args);
    };
  });
  try {
    return { value: await fn(), calls };
  } finally {
    targets.forEach(([proto, name], i) => {
      (proto as Record<string, unknown>)[name] = originals[i];
    });
  }
}

describe('a drain on the working set alone', () => {
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => (repo = await makeTempRepo()));
  afterEach(async () => repo.cleanup());

  it('never reads the history when its tasks need nothing of it; a dependency there is looked up', async () => {
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    const project = await Project.open(repo.dir, { registry });
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo "$SWITCHYARD_TASK_ID" > "f-$SWITCHYARD_TASK_ID.txt"' };
    });
    await project.tasks.addMany(Array.from({ length: 30 }, (_, i) => ({ title: `first ${i + 1}` })));
    assert.equal((await project.runQueue()).runs.length, 30);
    const afterFirst = await project.state();
    assert.equal(afterFirst.tasks.filter((t) => t.state === 'DONE').length, 30);

    // A second drain in a fresh process's view of the project: 10 tasks of the 30 are in the history by now.
    const again = await Project.open(repo.dir, { registry });
    await again.tasks.addMany(Array.from({ length: 5 }, (_, i) => ({ title: `second ${i + 1}` })));
    const plain = await counting(
      [
        [TaskHistory.prototype, 'readRange'],
        [TaskHistory.prototype, 'newestFirst'],
        [ProjectStore.prototype, 'read'],
      ],
      () => again.runQueue(),
    );
    assert.equal(plain.value.runs.length, 5);
    assert.deepEqual(plain.calls, [0, 0, 0], 'no history read, no whole state composed');

    // A task depending on t1 (in the history, DONE): looked up there, not by reading the whole history.
    await again.tasks.addMany([{ title: 'after t1', dependsOn: ['t1'] }]);
    // Drained by another process, which has not read the history yet.
    const third = await Project.open(repo.dir, { registry });
    const dep = await counting(
      [
        [TaskHistory.prototype, 'readRange'],
        [TaskHistory.prototype, 'newestFirst'],
      ],
      () => third.runQueue(),
    );
    assert.deepEqual(
      dep.value.runs.map((r) => r.state),
      ['SUCCEEDED'],
    );
    assert.equal(dep.calls[0], 0, 'the history was not loaded whole');
    assert.ok(dep.calls[1]! >= 1, 'the dependency was looked up newest first');
    const state = await again.state();
    assert.equal(state.tasks.length, 36);
    assert.ok(state.tasks.every((t) => t.state === 'DONE'));
  });
});

import assert from 'node:assert/strict';
import { addTasks, approveTask } from '../../../src/core/engine/commands/taskCommands';
import { ProjectStore } from '../../../src/core/backend/projectStore';
import { makeTempDir } from '../../helpers/tempRepo';
import { registry } from '../transitions/engineState';

describe('task input: urgent flags and dependency cycles', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let store: ProjectStore;
  const reg = registry({ id: 'command', cap: 2 });
  const NOW = Date.parse('2030-01-01T00:00:00Z');
  beforeEach(async () => {
    tmp = await makeTempDir();
    store = await ProjectStore.open(tmp.dir);
  });
  afterEach(async () => tmp.cleanup());
  const add = (specs: unknown[]) => addTasks(store, reg, specs, 'base', 'tasks.json', NOW);

  it('an urgent flag needs an owner, a reason and an expiry, each named when missing', async () => {
    await assert.rejects(
      add([{ title: 'x', urgent: { reason: 'prod down', expiresAt: '2030-01-02T00:00:00Z' } }]),
      /tasks\.json: urgent\.owner: urgent\.owner is required: who asked for it/,
    );
    await assert.rejects(
      add([{ title: 'x', urgent: { owner: 'ana', expiresAt: '2030-01-02T00:00:00Z' } }]),
      /urgent\.reason: urgent\.reason is required/,
    );
    await assert.rejects(
      add([{ title: 'x', urgent: { owner: 'ana', reason: 'r', expiresAt: 'tomorrow' } }]),
      /urgent\.expiresAt: urgent\.expiresAt must be an ISO date-time/,
    );
    await assert.rejects(
      add([{ title: 'x', urgent: { owner: 'ana', reason: 'r', expiresAt: '2030-01-02T00:00:00Z', level: 9 } }]),
      /Unrecognized key: "level"/,
    );
    assert.deepEqual((await store.read()).tasks, [], 'nothing stored');
  });

  it('an urgent flag must expire in the future; a valid one is stored', async () => {
    await assert.rejects(
      add([{ title: 'x', urgent: { owner: 'ana', reason: 'r', expiresAt: '2029-12-31T23:59:59Z' } }]),
      /urgent\.expiresAt: must be in the future \(it is 2029-12-31T23:59:59Z; now is 2030-01-01T00:00:00\.000Z\)/,
    );
    const [task] = await add([
      { title: 'x', urgent: { owner: 'ana', reason: 'prod is down', expiresAt: '2030-01-01T06:00:00Z' } },
    ]);
    assert.deepEqual(task!.spec.urgent, { owner: 'ana', reason: 'prod is down', expiresAt: '2030-01-01T06:00:00Z' });
  });

  it('dependsOn names keys of the same file; a cycle is refused, naming it, and nothing is stored', async () => {
    await assert.rejects(
      add([
        { title: 'build', key: 'build', dependsOn: ['test'] },
        { title: 'test', key: 'test', dependsOn: ['lint'] },
        { title: 'lint', key: 'lint', dependsOn: ['build'] },
      ]),
      /tasks\.json: dependency cycle: build → test → lint → build \(each depends on the next\)/,
    );
    await assert.rejects(add([{ title: 'self', key: 's', dependsOn: ['s'] }]), /dependency cycle: s → s/);
    assert.deepEqual((await store.read()).tasks, []);
    const tasks = await add([
      { title: 'b', key: 'b', dependsOn: ['a'] },
      { title: 'a', key: 'a' },
    ]);
    assert.deepEqual(
      tasks.map((t) => [t.id, t.spec.dependsOn]),
      [
        ['t1', ['t2']],
        ['t2', []],
      ],
    );
    await assert.rejects(
      add([
        { title: 'x', key: 'k' },
        { title: 'y', key: 'k' },
      ]),
      /key "k" is used twice/,
    );
  });

  it('a draft task is not scheduled until approved; approving twice is refused', async () => {
    const [draft] = await add([{ title: 'plan first', draft: true }]);
    assert.equal(draft!.state, 'DRAFT');
    assert.equal((await approveTask(store, draft!.id)).state, 'READY');
    await assert.rejects(approveTask(store, draft!.id), /task t1 is READY; only DRAFT tasks need approval/);
  });

  it('a task that depends on a FAILED task starts BLOCKED', async () => {
    const [first] = await add([{ title: 'a' }]);
    await store.update((s) => {
      s.tasks[0]!.state = 'FAILED';
    });
    const [second] = await add([{ title: 'b', dependsOn: [first!.id] }]);
    assert.equal(second!.state, 'BLOCKED');
    assert.deepEqual(second!.blockedBy, ['t1']);
  });
});

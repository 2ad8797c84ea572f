import assert from 'node:assert/strict';
import { isSwitchyardError } from '../../../src/core/errors';
import { NewTaskSpec } from '../../../src/core/model/newTaskSpec';
import { newRun } from '../../../src/core/transitions/newRun';
import { setTaskState } from '../../../src/core/transitions/setTaskState';
import {
  addTasksTo,
  approveTaskIn,
  cancelTaskIn,
  retryTaskIn,
  setTaskLaneIn,
} from '../../../src/core/transitions/taskTransitions';
import { stateWith } from './engineState';

const where = { baseCommit: 'base0', where: 'task', label: () => 'task', now: Date.parse('2030-01-01T00:00:00Z') };
const illegal = (pattern: RegExp) => (error: unknown) =>
  isSwitchyardError(error, 'illegal-transition') && pattern.test(String(error));

/** The task commands as pure transitions of a state value: no store, no git, no process. */
describe('task transitions', () => {
  it('adds a batch with keys as dependencies, blocked at once by a dependency that already FAILED', () => {
    const state = stateWith([{ title: 'old' }]);
    state.tasks[0]!.state = 'FAILED';
    const specs = [
      NewTaskSpec.parse({ title: 'a', key: 'a' }),
      NewTaskSpec.parse({ title: 'b', dependsOn: ['a', 't1'] }),
    ];
    const created = addTasksTo(state, specs, new Map([['a', 0]]), where);
    assert.deepEqual(
      created.map((t) => [t.id, t.state, t.spec.dependsOn]),
      [
        ['t2', 'READY', []],
        ['t3', 'BLOCKED', ['t2', 't1']],
      ],
    );
    assert.deepEqual(created[1]!.blockedBy, ['t1']);
    assert.equal(state.nextTaskNumber, 4);
  });

  it('refuses a dependency cycle and an unknown dependency, changing nothing', () => {
    const state = stateWith([]);
    const cycle = [
      NewTaskSpec.parse({ title: 'a', key: 'a', dependsOn: ['b'] }),
      NewTaskSpec.parse({ title: 'b', key: 'b', dependsOn: ['a'] }),
    ];
    assert.throws(
      () =>
        addTasksTo(
          state,
          cycle,
          new Map([
            ['a', 0],
            ['b', 1],
          ]),
          where,
        ),
      /each depends on the next/,
    );
    assert.throws(
      () => addTasksTo(state, [NewTaskSpec.parse({ title: 'c', dependsOn: ['t9'] })], new Map(), where),
      /unknown task\(s\) t9/,
    );
    assert.equal(state.tasks.length, 0);
  });

  it('cancel moves the generation on and blocks the dependents', () => {
    const state = stateWith([{ title: 'a' }, { title: 'b', dependsOn: ['t1'] }]);
    newRun(state, state.tasks[0]!, { root: '/repo', owner: 'me', lane: 'a', resume: 'none', now: 1 });
    const task = cancelTaskIn(state, 't1');
    assert.deepEqual([task.state, task.generation], ['CANCELED', 1]);
    assert.equal(state.tasks[1]!.state, 'BLOCKED');
  });

  it('cancel is refused once the merge is recorded as under way, and once it landed', () => {
    const state = stateWith([{ title: 'a' }]);
    const task = state.tasks[0]!;
    const run = newRun(state, task, { root: '/repo', owner: 'me', lane: 'a', resume: 'none', now: 1 });
    setTaskState(task, 'VERIFYING');
    setTaskState(task, 'INTEGRATING');
    run.integrationIntent = { branch: 'switchyard/integration', to: 'c0ffee', at: new Date(0).toISOString() };
    assert.throws(() => cancelTaskIn(state, 't1'), illegal(/being merged into switchyard\/integration .* too late/));
    delete run.integrationIntent;
    task.integration = { branch: 'switchyard/integration', commit: 'c0ffee', runId: run.id, at: '' };
    assert.throws(() => cancelTaskIn(state, 't1'), illegal(/already merged into switchyard\/integration/));
    assert.equal(task.state, 'INTEGRATING');
  });

  it('approve makes a DRAFT READY, or BLOCKED behind a failed dependency; anything else is refused', () => {
    const state = stateWith([{ title: 'dep' }, { title: 'draft', dependsOn: ['t1'] }]);
    state.tasks[1]!.state = 'DRAFT';
    state.tasks[0]!.state = 'FAILED';
    assert.equal(approveTaskIn(state, 't2').state, 'BLOCKED');
    assert.throws(() => approveTaskIn(state, 't2'), illegal(/only DRAFT tasks need approval/));
  });

  it('retry gives a FAILED task a fresh budget and unblocks its dependents; a READY one is refused', () => {
    const state = stateWith([{ title: 'a' }, { title: 'b', dependsOn: ['t1'] }]);
    Object.assign(state.tasks[0]!, { state: 'FAILED', attempts: 3, failureReason: 'no' });
    Object.assign(state.tasks[1]!, { state: 'BLOCKED', blockedBy: ['t1'] });
    const task = retryTaskIn(state, 't1');
    assert.deepEqual([task.state, task.attempts, task.attemptsBefore, task.failureReason], ['READY', 0, 3, undefined]);
    assert.equal(state.tasks[1]!.state, 'READY');
    assert.throws(() => retryTaskIn(state, 't1'), illegal(/only FAILED or CANCELED tasks can be retried/));
  });

  it('moves a task to another lane', () => {
    const state = stateWith([{ title: 'a', lane: 'x' }]);
    assert.equal(setTaskLaneIn(state, 't1', 'y').spec.lane, 'y');
  });
});

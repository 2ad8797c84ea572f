import assert from 'node:assert/strict';
import { runIdFrom, taskIdFrom } from '../../../src/ui/commands/commandArgs';

describe('command arguments', () => {
  it('reads ids from strings, tree ids and objects', () => {
    assert.equal(taskIdFrom('t1'), 't1');
    assert.equal(taskIdFrom('task:t2'), 't2');
    assert.equal(taskIdFrom({ taskId: 't3' }), 't3');
    assert.equal(taskIdFrom({ task: { id: 't4' } }), 't4');
    assert.equal(runIdFrom({ runId: 't1.2' }), 't1.2');
    assert.equal(runIdFrom('run:t1.3'), 't1.3');
  });

  it("treats VS Code's editor options (no id key at all) as no argument, so the command asks", () => {
    assert.equal(runIdFrom({ preserveFocus: false }), undefined);
    assert.equal(taskIdFrom({ preserveFocus: true, viewColumn: 1 }), undefined);
    assert.equal(runIdFrom(undefined), undefined);
  });

  it('still refuses an id key of the wrong type, a non-object, and an empty id', () => {
    assert.throws(() => runIdFrom({ runId: 7 }), /expected a run id or a run item/);
    assert.throws(() => taskIdFrom({ id: null }), /expected a task id or a task item/);
    assert.throws(() => taskIdFrom(5), /expected a task id or a task item, got number/);
    assert.throws(() => taskIdFrom('  '), /taskId must not be empty/);
  });
});

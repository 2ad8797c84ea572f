import assert from 'node:assert/strict';
import { describeArg, laneIdFrom } from '../../../src/ui/commands/commandArgs';
import { runQueueRowArgs } from '../../../src/ui/commands/runQueueRowArgs';
import { argsWithRow, fromTree, withSelectedRow } from '../../../src/ui/commands/treeRowArgs';
import { RunNode, StateNode, TaskNode } from '../../../src/ui/views/taskTreeNodes';
import { taskWithRun } from '../../helpers/finishedTasks';

// VS Code hands a view-title command the focused Tasks row (null when none has focus) and the selected rows; a
// context-menu command gets the row it was opened on. One rule maps those to each command's arguments.
describe('a Tasks tree row as a command argument', () => {
  const ready = taskWithRun(1, 'READY');
  const done = taskWithRun(2, 'DONE');
  const readyRow = new TaskNode(ready.task, 'command', []);
  const doneRow = new TaskNode(done.task, 'command', done.runs);

  it('is dropped for a command that takes no row (New Task, Set API Key, Set Project Default Lane)', () => {
    assert.deepEqual(argsWithRow([readyRow, [readyRow]], undefined), []);
    assert.deepEqual(argsWithRow([null, []], undefined), []);
    assert.deepEqual(argsWithRow([new StateNode('READY', [ready.task])], undefined), []);
    assert.deepEqual(argsWithRow([{ kind: 'restricted-mode' }, []], runQueueRowArgs), [], 'the Restricted Mode row');
  });

  it('reaches a command that works on a row unchanged', () => {
    assert.deepEqual(argsWithRow([doneRow, [doneRow]], 'row'), [doneRow, [doneRow]]);
    const runRow = new RunNode(done.runs[0]!);
    assert.deepEqual(argsWithRow([runRow], 'row'), [runRow]);
  });

  it('maps a READY task row to that task for Run Queue, any other row to the whole queue', () => {
    assert.deepEqual(argsWithRow([readyRow, [readyRow]], runQueueRowArgs), [{ taskIds: ['t1'] }]);
    assert.deepEqual(argsWithRow([doneRow], runQueueRowArgs), []);
    assert.deepEqual(argsWithRow([new StateNode('READY', [ready.task])], runQueueRowArgs), []);
  });

  // The extension host hands a title button `undefined` for the focused row while a tree refresh has its handles
  // forgotten (code-server 4.100.3's extHostTreeViews: `focusedElement` is undefined when `getExtensionElement`
  // misses); Run Queue then ran the whole queue although the user had selected one READY task.
  it("takes the view's selection for a title button whose row VS Code could not name", () => {
    const call = (args: unknown[], selection: unknown[]) =>
      argsWithRow(
        withSelectedRow(args, () => selection),
        runQueueRowArgs,
      );
    assert.deepEqual(call([undefined], [readyRow]), [{ taskIds: ['t1'] }]);
    assert.deepEqual(call([undefined], [doneRow]), [], 'a finished row: the whole queue');
    assert.deepEqual(call([undefined], []), [undefined], 'nothing selected: the whole queue, as before');
    // A row VS Code did name, the palette's call and a program's call are not the selection's business.
    assert.deepEqual(call([doneRow, [doneRow]], [readyRow]), []);
    assert.deepEqual(
      withSelectedRow([], () => [readyRow]),
      [],
    );
    assert.deepEqual(
      withSelectedRow([{ taskIds: ['t2'] }], () => [readyRow]),
      [{ taskIds: ['t2'] }],
    );
    assert.deepEqual(
      withSelectedRow([undefined], () => [{ title: 'x' }]),
      [undefined],
      'a selection of no tree row',
    );
  });

  it("leaves a program's arguments alone", () => {
    assert.deepEqual(argsWithRow([{ taskIds: ['t1'] }], runQueueRowArgs), [{ taskIds: ['t1'] }]);
    assert.deepEqual(argsWithRow(['command', 'ANTHROPIC_API_KEY', 'k'], undefined), [
      'command',
      'ANTHROPIC_API_KEY',
      'k',
    ]);
    assert.equal(fromTree([{ title: 'x' }]), false);
    assert.equal(fromTree(['t1']), false);
  });

  it("VS Code's editor options ({preserveFocus}) are no argument: the command asks, as from the palette", () => {
    assert.deepEqual(argsWithRow([{ preserveFocus: false }], undefined), []);
    assert.deepEqual(argsWithRow([{ preserveFocus: true, preview: false }], 'row'), []);
    assert.equal(laneIdFrom({ preserveFocus: false }), undefined);
    // Data that is not only editor options still reaches the command (and a wrong shape is still an error).
    assert.deepEqual(argsWithRow([{ title: 'x', spec: 'y' }], undefined), [{ title: 'x', spec: 'y' }]);
    assert.throws(() => laneIdFrom({ preserveFocus: false, lane: 7 }), /expected a lane id/);
  });

  it("never puts an argument's content in an error", () => {
    const error = (() => {
      try {
        laneIdFrom(readyRow);
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    assert.match(error, /expected a lane id \(a string\), got an object with task, lane, runs, pullRequest…/);
    assert.doesNotMatch(error, /change file 1|spec/);
    assert.equal(describeArg('sk-secret'), 'a string of 9 characters');
  });
});

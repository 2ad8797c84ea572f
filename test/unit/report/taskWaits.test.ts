import assert from 'node:assert/strict';
import type { Task } from '../../../src/core/model/task';
import { emptyProjectState } from '../../../src/core/store/projectState';
import { taskWaitLines } from '../../../src/core/report/taskWaits';

function task(id: string, state: Task['state'], extra: Partial<Task['spec']> = {}, more: Partial<Task> = {}): Task {
  return {
    id,
    spec: { title: id, spec: '', files: [], dependsOn: [], priority: 50, ...extra },
    state,
    baseCommit: 'abc',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    attempts: 0,
    generation: 0,
    ...more,
  } as Task;
}

describe('what a waiting task waits for (its tooltip)', () => {
  const now = Date.parse('2026-01-01T12:00:00.000Z');

  it('names the dependencies that block a BLOCKED task, with their states', () => {
    const state = {
      ...emptyProjectState(),
      tasks: [task('t1', 'FAILED'), task('t2', 'BLOCKED', {}, { blockedBy: ['t1'] })],
    };
    assert.deepEqual(taskWaitLines(state.tasks[1]!, state, now), [
      'blocked by t1 (FAILED): Retry Task on it, or Cancel Task here',
    ]);
  });

  it('names the file a READY task waits for and who holds it, and its unfinished dependencies', () => {
    const state = {
      ...emptyProjectState(),
      tasks: [
        task('t1', 'RUNNING', { files: ['src/a.ts'] }),
        task('t2', 'READY', { files: ['src/a.ts'], dependsOn: ['t3', 't9'] }),
        task('t3', 'VERIFYING'),
      ],
    };
    assert.deepEqual(taskWaitLines(state.tasks[1]!, state, now), [
      'waits for t3 (VERIFYING) to be DONE',
      'waits for src/a.ts, held by t1 (RUNNING); it may start when that ends',
    ]);
  });

  it('names a full stage and a retry backoff; nothing for a task that can start', () => {
    const base = emptyProjectState();
    const settings = { ...base.settings, wip: { ...base.settings.wip, RUNNING: 1 } };
    const later = '2026-01-01T12:05:00.000Z';
    const state = {
      ...base,
      settings,
      tasks: [task('t1', 'RUNNING'), task('t2', 'READY', {}, { retryAt: later }), task('t3', 'READY')],
    };
    assert.deepEqual(taskWaitLines(state.tasks[1]!, state, now), [
      'retry backoff: the next attempt starts no earlier than 12:05:00 (UTC)',
      'waits for a free slot: RUNNING is full (1/1)',
    ]);
    const free = { ...state, tasks: [task('t3', 'READY')] };
    assert.deepEqual(taskWaitLines(free.tasks[0]!, free, now), []);
    assert.deepEqual(taskWaitLines(state.tasks[0]!, state, now), [], 'a running task waits for nothing');
  });
});

import assert from 'node:assert/strict';
import type { ProjectState } from '../../../src/core/store/projectState';
import { reviewableRuns } from '../../../src/ui/views/contextKeyValues';
import { targetFileItems } from '../../../src/ui/prompts/targetFileItems';
import { taskWithRun } from '../../helpers/finishedTasks';

// The pure parts of review-to-merge and of New Task's target files: which runs' diff editors carry Merge and Discard
// (the switchyard.reviewableRuns context key), and the rows of the target-files picker.
describe('review to merge: the runs whose diff editor offers Merge and Discard', () => {
  const state = (...tasks: ReturnType<typeof taskWithRun>[]): ProjectState =>
    ({ tasks: tasks.map((t) => t.task), runs: tasks.flatMap((t) => t.runs) }) as unknown as ProjectState;
  const at = '2026-01-02T00:00:00.000Z';

  it("lists each DONE task's change run that is neither merged, discarded nor landed by a pull request", () => {
    const open = taskWithRun(1, 'DONE');
    const merged = taskWithRun(2, 'DONE');
    merged.task.merged = { branch: 'main', commit: 'c'.repeat(40), runId: 't2.1', at };
    const discarded = taskWithRun(3, 'DONE');
    discarded.task.discarded = { runId: 't3.1', at };
    const viaPr = taskWithRun(4, 'DONE');
    viaPr.task.integration = {
      branch: 'main',
      commit: 'd'.repeat(40),
      runId: 't4.1',
      at,
      pullRequest: { number: 4, url: 'https://example.invalid/pr/4' },
    };
    const failed = taskWithRun(5, 'FAILED');
    const integrated = taskWithRun(6, 'DONE');
    integrated.task.lastRunId = 't6.2';
    integrated.task.integration = { branch: 'switchyard/integration', commit: 'e'.repeat(40), runId: 't6.1', at };
    assert.deepEqual(reviewableRuns(state(open, merged, discarded, viaPr, failed, integrated)), ['t1.1', 't6.1']);
  });
});

describe("New Task's target-files picker rows", () => {
  it('ticks the editor’s file first, then lists the others once each, by path, as the core stores them', () => {
    assert.deepEqual(targetFileItems(['src/b.ts', 'README.md', './src/a.ts', 'src/b.ts', 'src\\c.ts'], ['src/a.ts']), [
      { path: 'src/a.ts', picked: true },
      { path: 'README.md', picked: false },
      { path: 'src/b.ts', picked: false },
      { path: 'src/c.ts', picked: false },
    ]);
  });

  it('leaves out a path the core would refuse (outside the repository, absolute)', () => {
    assert.deepEqual(targetFileItems(['../outside.txt', '/etc/passwd', 'ok.txt'], ['../up.txt']), [
      { path: 'ok.txt', picked: false },
    ]);
  });
});

import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readSalvagedWork } from '../../../../plugins/shared/salvageContext';
import { makeTempRepo } from '../../../helpers/tempRepo';

describe('the salvaged work for a new attempt (plugins/shared/salvageContext.ts)', function () {
  this.timeout(30_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  beforeEach(async () => {
    repo = await makeTempRepo();
  });
  afterEach(() => repo.cleanup());

  /** Commits `file` with `content` on a new branch `branch`, then goes back to main. */
  const commitOn = async (branch: string, file: string, content: string): Promise<void> => {
    await repo.git('checkout', '-q', '-b', branch);
    await writeFile(join(repo.dir, file), content);
    await repo.git('add', file);
    await repo.git('commit', '-q', '-m', `on ${branch}`);
    await repo.git('checkout', '-q', 'main');
  };

  it("reads the run's saved patch, else git: the worktree's last commit or the branch's own change", async () => {
    await commitOn('work', 'work.txt', 'earlier work\n');
    const context = await readSalvagedWork(repo.dir, { runId: 't1.1', start: 'target-head', workBranch: 'work' });
    assert.equal(context?.branch, 'work');
    assert.match(context!.diff, /^diff --git a\/work\.txt b\/work\.txt\n[\s\S]*\n\+earlier work\n$/);
    assert.equal(context!.truncated, false);

    await repo.git('checkout', '-q', 'work');
    const inWorktree = await readSalvagedWork(repo.dir, { runId: 't1.1', salvageBranch: 'switchyard/salvage/t1.1' });
    assert.equal(inWorktree?.branch, 'switchyard/salvage/t1.1');
    assert.match(inWorktree!.diff, /\+earlier work\n$/, 'the last commit of the worktree');

    await mkdir(join(repo.dir, '.switchyard', 'runs', 't1.1'), { recursive: true });
    await writeFile(join(repo.dir, '.switchyard', 'runs', 't1.1', 'diff.patch'), 'the saved patch\n');
    const saved = await readSalvagedWork(repo.dir, { runId: 't1.1', start: 'target-head', workBranch: 'work' });
    assert.equal(saved?.diff, 'the saved patch\n');
  });

  it('keeps the first 40,000 characters of a long diff, and says so', async () => {
    await commitOn('big', 'big.txt', `${'é'.repeat(99)}\n`.repeat(3_000));
    const context = await readSalvagedWork(repo.dir, { runId: 't1.1', start: 'base', workBranch: 'big' });
    assert.equal(context?.truncated, true);
    assert.equal(context!.diff.length, 40_000);
    assert.match(context!.diff, /^diff --git a\/big\.txt b\/big\.txt\n/);
    assert.ok(!context!.diff.includes('\uFFFD'), 'no character was cut in two');
  });

  it('says the diff could not be read when git fails, and gives nothing without a branch', async () => {
    const context = await readSalvagedWork(repo.dir, { runId: 't1.1', start: 'base', workBranch: 'gone' });
    assert.equal(context?.diff, '(the earlier diff could not be read; inspect `git log gone`)');
    assert.equal(await readSalvagedWork(repo.dir, { runId: 't1.1', start: 'earlier-work' }), undefined);
    assert.equal(await readSalvagedWork(repo.dir, undefined), undefined);
  });
});

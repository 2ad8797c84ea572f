import assert from 'node:assert/strict';
import { link, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WORKTREES_DIR } from '../../../src/core/store/runPaths';
import { measureWorktreeUsage } from '../../../src/core/workspace/worktreeUsage';
import { editState } from '../../helpers/editState';
import { runCli } from '../../helpers/runCli';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('branch retention: switchyard prune and worktree.keepBranchesDays', function () {
  this.timeout(90_000);
  let repo: Awaited<ReturnType<typeof makeTempRepo>>;
  const cli = (...args: string[]) => runCli([...args, '--repo', repo.dir]);
  const branches = async () =>
    (await repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/switchyard/')).trim().split('\n');

  beforeEach(async () => {
    repo = await makeTempRepo();
    // a fails verification once (a salvaged first attempt), then passes; b passes at once.
    const agent = 'echo "$SWITCHYARD_ATTEMPT" > "$SWITCHYARD_TASK_ID.txt"';
    await cli('lanes', 'set', 'command', `command=${agent}`);
    const file = join(repo.dir, '..', `${repo.dir.split('/').pop()}-tasks.json`);
    await writeFile(file, JSON.stringify({ tasks: [{ title: 'a', acceptance: 'grep -q 2 t1.txt' }, { title: 'b' }] }));
    assert.equal((await cli('task', 'add', '--from', file)).code, 0);
    const run = await cli('run');
    assert.equal(run.code, 0, run.out + run.err);
  });
  afterEach(() => repo.cleanup());

  it('a drain keeps the branches of a task integrated less than keepBranchesDays ago, deletes older ones', async () => {
    const before = await branches();
    assert.ok(before.includes('switchyard/t1/1') && before.includes('switchyard/t1/2'), before.join(' '));
    await cli('run');
    assert.deepEqual(await branches(), before, 'integrated today: kept (default 7 days)');
    await editState(repo.dir, (s) => {
      const t1 = s.tasks.find((t) => t.id === 't1')!;
      t1.integration!.at = new Date(Date.now() - 8 * 24 * 60 * 60_000).toISOString();
    });
    await cli('run');
    const after = await branches();
    assert.ok(
      !after.some((b) => b.startsWith('switchyard/t1/') || b.startsWith('switchyard/salvage/t1.')),
      after.join(),
    );
    assert.ok(after.includes('switchyard/t2/1'), 't2 was integrated today');
    assert.ok(after.includes('switchyard/integration'), 'the target stays');
  });

  it('switchyard prune deletes them now, and says so', async () => {
    const pruned = await cli('prune');
    assert.equal(pruned.code, 0, pruned.err);
    assert.match(pruned.out, /^branch switchyard\/t1\/1 of t1 deleted: t1 landed /m);
    assert.match(pruned.out, /^branch switchyard\/t2\/1 of t2 deleted: /m);
    assert.deepEqual(await branches(), ['switchyard/integration']);
    assert.equal((await cli('prune')).out, 'no branches to prune');
  });
});

describe('worktree sizes', () => {
  it('count a file hard-linked into several worktrees once', async function () {
    const repo = await makeTempRepo();
    try {
      const big = Buffer.alloc(1_000_000, 7);
      for (const name of ['t1.1', 't2.1']) await mkdir(join(repo.dir, WORKTREES_DIR, name), { recursive: true });
      await writeFile(join(repo.dir, WORKTREES_DIR, 't1.1', 'big.bin'), big);
      await link(join(repo.dir, WORKTREES_DIR, 't1.1', 'big.bin'), join(repo.dir, WORKTREES_DIR, 't2.1', 'big.bin'));
      const usage = await measureWorktreeUsage(repo.dir);
      assert.equal(usage.count, 2);
      assert.ok(usage.bytes! >= 1_000_000 && usage.bytes! < 1_200_000, `about 1 MB, not 2: ${usage.bytes}`);
    } finally {
      await repo.cleanup();
    }
  });
});

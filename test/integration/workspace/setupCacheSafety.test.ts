import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCommandLane } from '../../../plugins/command';
import { LaneRegistry } from '../../../src/core/lanes/laneRegistry';
import { Project } from '../../../src/core/project/project';
import { pruneSetupCache } from '../../../src/core/workspace/pruneSetupCache';
import { SETUP_CACHE_DIR, storeCacheEntry } from '../../../src/core/workspace/setupCache';
import { makeNodeProject } from '../../helpers/nodeProject';
import { makeTempDir } from '../../helpers/tempRepo';

const DAY_MS = 24 * 60 * 60_000;
/** An agent that edits the installed dependency in place (the same file, not a new one), then does its work. */
const TAMPER =
  "printf 'module.exports = { answer: 0 };\\n' > node_modules/dep/index.js; echo w > w-$SWITCHYARD_RUN_ID.txt";

describe('the setup cache: runs cannot change it', function () {
  this.timeout(180_000);
  let repo: Awaited<ReturnType<typeof makeNodeProject>>;
  afterEach(() => repo?.cleanup());

  it('a run that edits node_modules in place changes neither the cache nor worktrees restored from it', async () => {
    repo = await makeNodeProject();
    const registry = new LaneRegistry();
    registry.register(createCommandLane());
    const project = await Project.open(repo.dir, { registry, trusted: true });
    await project.settings.update((s) => {
      s.laneSettings.command = { command: TAMPER };
      s.retryCaps.command = 1;
      s.worktree.setup = ['npm ci --offline --no-audit --no-fund'];
    });
    // The first run installs and stores the entry, the second restores it; both tamper with what they got.
    for (const title of ['stores', 'restores']) {
      await project.tasks.addMany([{ title }]);
      await project.runQueue();
    }
    await project.settings.update((s) => {
      s.laneSettings.command = { command: 'echo ok > ok.txt' };
    });
    await project.tasks.addMany([{ title: 'checks', acceptance: 'npm test' }]);
    await project.runQueue();
    const state = await project.state();
    assert.deepEqual(
      state.runs.map((r) => r.setup?.cache),
      ['stored', 'hit', 'hit'],
    );
    assert.equal(state.tasks[2]!.state, 'DONE', state.runs[2]!.failureReason);
    const [key] = (await readdir(join(repo.dir, SETUP_CACHE_DIR))).filter((n) => !n.endsWith('.lock'));
    const cached = join(repo.dir, SETUP_CACHE_DIR, key!, 'files', 'node_modules', 'dep', 'index.js');
    assert.equal(await readFile(cached, 'utf8'), 'module.exports = { answer: 42 };\n');
  });
});

describe('the setup cache: pruned by age and size', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => dir.cleanup());

  /** An entry of `mb` megabytes last used `daysAgo` days ago. */
  async function entry(key: string, mb: number, daysAgo: number): Promise<void> {
    const worktree = join(dir.dir, `wt-${key}`);
    await mkdir(join(worktree, 'deps'), { recursive: true });
    await writeFile(join(worktree, 'deps', 'blob'), Buffer.alloc(mb * 1024 * 1024, 1));
    await storeCacheEntry(dir.dir, key, ['deps'], worktree);
    const used = new Date(Date.now() - daysAgo * DAY_MS);
    await utimes(join(dir.dir, SETUP_CACHE_DIR, key, 'entry.json'), used, used);
  }
  const keys = async () =>
    (await readdir(join(dir.dir, SETUP_CACHE_DIR))).filter((n) => !n.endsWith('.lock') && !n.startsWith('.')).sort();

  it('removes entries unused for setupCacheMaxDays, then the least recently used over setupCacheMaxMb', async () => {
    await entry('old', 1, 20);
    await entry('older-used', 2, 3);
    await entry('recent', 2, 1);
    await entry('newest', 1, 0);
    const lines = await pruneSetupCache(dir.dir, { setupCacheMaxDays: 14, setupCacheMaxMb: 4 });
    assert.deepEqual(await keys(), ['newest', 'recent']);
    assert.match(lines[0]!, /entry old removed .*unused for 20 days \(worktree\.setupCacheMaxDays 14\)/);
    assert.match(lines[1]!, /entry older-used removed .*least recently used .*5 MB \(worktree\.setupCacheMaxMb 4\)/);
    assert.equal(lines.length, 2);
    assert.deepEqual(await pruneSetupCache(dir.dir, { setupCacheMaxDays: 14, setupCacheMaxMb: 4 }), []);
  });

  it('a drain prunes the cache when it starts', async () => {
    const repo = await makeNodeProject();
    try {
      const key = 'abandoned';
      const worktree = join(repo.dir, '..', 'wt');
      await mkdir(join(worktree, 'deps'), { recursive: true });
      await writeFile(join(worktree, 'deps', 'x'), 'x');
      await storeCacheEntry(repo.dir, key, ['deps'], worktree);
      const used = new Date(Date.now() - 30 * DAY_MS);
      await utimes(join(repo.dir, SETUP_CACHE_DIR, key, 'entry.json'), used, used);
      const registry = new LaneRegistry();
      registry.register(createCommandLane());
      const project = await Project.open(repo.dir, { registry, trusted: true });
      await project.runQueue();
      assert.deepEqual(
        (await readdir(join(repo.dir, SETUP_CACHE_DIR))).filter((n) => !n.startsWith('.')),
        [],
      );
    } finally {
      await repo.cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { removeFolder } from '../../../src/core/workspace/folderRemover';
import { buildDistBundles } from '../../helpers/distBundles';
import { makeTempDir } from '../../helpers/tempRepo';

describe('removeFolder (rm -rf on a worker thread)', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => dir.cleanup());

  it('removes a folder and all in it, not what a symlink in it points at; a missing one is fine', async () => {
    const tree = join(dir.dir, 'tree');
    const outside = join(dir.dir, 'outside.txt');
    await writeFile(outside, 'keep');
    for (let i = 0; i < 20; i++) {
      await mkdir(join(tree, `d${i}`, 'deep'), { recursive: true });
      await writeFile(join(tree, `d${i}`, 'deep', 'f.txt'), String(i));
    }
    await symlink(outside, join(tree, 'link'));
    await Promise.all([removeFolder(tree), removeFolder(join(dir.dir, 'never-was'))]);
    assert.equal(existsSync(tree), false);
    assert.equal(existsSync(outside), true);
  });

  it('reports what stopped a removal, with its code', async () => {
    const file = join(dir.dir, 'a-file');
    await writeFile(file, 'x');
    await assert.rejects(removeFolder(join(file, 'below')), (error: NodeJS.ErrnoException) => {
      assert.equal(error.code, 'ENOTDIR');
      assert.match(error.message, /not a directory/);
      return true;
    });
  });

  it('does not keep a process alive once its removals are done', async function () {
    this.timeout(30_000);
    const tree = join(dir.dir, 'tree');
    await mkdir(join(tree, 'a'), { recursive: true });
    const script = `import { removeFolder } from ${JSON.stringify(resolve('src/core/workspace/folderRemover.ts'))};await removeFolder(${JSON.stringify(tree)}); console.log('removed');`;
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), 'removed');
    assert.equal(existsSync(tree), false);
    assert.ok(Date.now() - started < 15_000);
  });

  describe("the removal is made by the worker's own program (folderRemoverWorker)", () => {
    const probe = 'test/fixtures/workspace/folderRemoverProbe.ts';
    const run = async (args: string[]) => {
      const tree = join(dir.dir, 'tree');
      await mkdir(join(tree, 'a', 'b'), { recursive: true });
      const child = spawnSync(process.execPath, [...args, tree], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(child.status, 0, child.stderr);
      return { result: JSON.parse(child.stdout) as unknown, stderr: child.stderr };
    };
    const removeWith = async (args: string[]): Promise<unknown> => {
      const { result, stderr } = await run(args);
      assert.doesNotMatch(stderr, /SWITCHYARD_FOLDER_REMOVER/);
      return result;
    };

    it('from the TypeScript sources', async function () {
      this.timeout(30_000);
      assert.deepEqual(await removeWith(['--import', 'tsx', probe]), { removed: true, workers: [{ online: true }] });
    });

    it('from bundles laid out as dist/ (the worker program beside the bundle)', async function () {
      this.timeout(60_000);
      const bundles = await mkdtemp(join(tmpdir(), 'switchyard-remover-'));
      try {
        await writeFile(join(bundles, 'package.json'), '{ "type": "commonjs" }\n');
        await buildDistBundles(bundles, [[probe, 'probe.js']]);
        assert.deepEqual(await removeWith([join(bundles, 'probe.js')]), { removed: true, workers: [{ online: true }] });
      } finally {
        await rm(bundles, { recursive: true, force: true });
      }
    });

    it('without its program the folder is still removed, and a warning says the worker stopped', async function () {
      this.timeout(60_000);
      const bundles = await mkdtemp(join(tmpdir(), 'switchyard-remover-'));
      try {
        await writeFile(join(bundles, 'package.json'), '{ "type": "commonjs" }\n');
        await buildDistBundles(bundles, [[probe, 'probe.js']]);
        await rm(join(bundles, 'folderRemoverWorker.js'));
        const { result, stderr } = await run([join(bundles, 'probe.js')]);
        const { removed, workers } = result as { removed: boolean; workers: { online: boolean; error?: string }[] };
        assert.equal(removed, true);
        assert.equal(workers.length, 1);
        assert.match(workers[0]!.error ?? '', /Cannot find module .*folderRemoverWorker\.js/);
        const warnings = stderr.match(/SWITCHYARD_FOLDER_REMOVER/g) ?? [];
        assert.equal(warnings.length, 1, stderr);
        assert.match(
          stderr,
          /folder remover's worker thread stopped \(Cannot find module .*\): folders are removed on the main thread/,
        );
      } finally {
        await rm(bundles, { recursive: true, force: true });
      }
    });
  });
});

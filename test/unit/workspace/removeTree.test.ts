import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from '../../../src/core/workspace/removeTree';

/** `files` files spread over nested folders under a fresh temporary folder; the tree's root. */
function makeTree(files: number): string {
  const top = mkdtempSync(join(tmpdir(), 'switchyard-remove-'));
  const root = join(top, 'tree');
  for (let i = 0; i < files; i++) {
    const dir = join(root, `d${i % 3}`, `e${i % 2}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.txt`), `${i}\n`);
  }
  return root;
}

describe('removeTree', () => {
  it('removes a small tree before it returns to the event loop (no thread-pool round trips)', async () => {
    const root = makeTree(20);
    const removing = removeTree(root);
    assert.equal(existsSync(root), false, 'gone synchronously, within the budget');
    await removing;
    rmSync(join(root, '..'), { recursive: true, force: true });
  });

  it('past its budget leaves the rest to the asynchronous removal, and the whole tree still goes', async () => {
    const root = makeTree(60);
    const removing = removeTree(root, 10);
    assert.equal(existsSync(root), true, 'not all of it synchronously');
    await removing;
    assert.equal(existsSync(root), false);
    assert.deepEqual(readdirSync(join(root, '..')), []);
    rmSync(join(root, '..'), { recursive: true, force: true });
  });

  it('removes a symbolic link, not what it points at; a missing path is no error', async () => {
    const top = mkdtempSync(join(tmpdir(), 'switchyard-remove-'));
    const kept = join(top, 'kept');
    mkdirSync(kept);
    writeFileSync(join(kept, 'keep.txt'), 'keep\n');
    const root = join(top, 'tree');
    mkdirSync(root);
    symlinkSync(kept, join(root, 'link'));
    await removeTree(root);
    assert.equal(existsSync(root), false);
    assert.equal(existsSync(join(kept, 'keep.txt')), true, 'the link target is untouched');
    await removeTree(join(top, 'never-there'));
    rmSync(top, { recursive: true, force: true });
  });
});

import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { providedPathEvidence } from '../../../src/core/guards/providedPathScan';
import { makeTempRepo } from '../../helpers/tempRepo';

describe('copied and linked paths in a change', () => {
  it('names each committed copied or linked path (and what is inside a linked one), nothing else', async () => {
    const repo = await makeTempRepo();
    try {
      const base = (await repo.git('rev-parse', 'HEAD')).trim();
      await writeFile(join(repo.dir, '.env'), 'A=1\n');
      await symlink('/elsewhere/node_modules', join(repo.dir, 'node_modules'));
      await mkdir(join(repo.dir, 'vendor', 'lib'), { recursive: true });
      await writeFile(join(repo.dir, 'vendor', 'lib', 'x.js'), '1\n');
      await writeFile(join(repo.dir, 'vendored.txt'), 'not inside vendor/\n');
      await writeFile(join(repo.dir, 'notes.txt'), 'ordinary\n');
      await repo.git('add', '-A', '-f', '.');
      await repo.git('commit', '-m', 'the agent commits everything');
      const head = (await repo.git('rev-parse', 'HEAD')).trim();
      const evidence = await providedPathEvidence(repo.dir, base, head, {
        copy: ['.env', './config/local.json'],
        link: ['node_modules', 'vendor/'],
      });
      assert.deepEqual(
        evidence.map((e) => e.file),
        ['.env', 'node_modules', 'vendor/lib/x.js'],
      );
      assert.match(evidence[0]!.message, /worktree\.copy/);
      assert.match(evidence[1]!.message, /worktree\.link/);
    } finally {
      await repo.cleanup();
    }
  });
});

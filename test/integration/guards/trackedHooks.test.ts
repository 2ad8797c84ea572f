import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { initRepo, repoGit } from '../../helpers/repoGit';
import { runCli } from '../../helpers/runCli';
import { makeTempDir } from '../../helpers/tempRepo';

const TEAM_HOOK = '#!/bin/sh\nnpm test\n';

describe('guard install and a tracked hooks folder (husky)', function () {
  this.timeout(60_000);
  let home: Awaited<ReturnType<typeof makeTempDir>>;
  let clone: string;
  beforeEach(async () => {
    home = await makeTempDir();
    // The team's repository: a husky hooks folder committed, cloned into a fresh HOME.
    const origin = join(home.dir, 'origin');
    await mkdir(join(origin, '.husky'), { recursive: true });
    await writeFile(join(origin, '.husky', 'pre-push'), TEAM_HOOK, { mode: 0o755 });
    await writeFile(join(origin, 'README.md'), '# team\n');
    await initRepo(origin, 'husky', 'Team');
    clone = join(home.dir, 'clone');
    await repoGit(home.dir)('clone', '-q', origin, clone);
  });
  afterEach(() => home.cleanup());

  it('refuses to write into a tracked core.hooksPath and says which line to add to the team hook', async () => {
    // What husky's `prepare` script does on `npm install`.
    execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: clone });
    const installed = await runCli(['guard', 'install', '--repo', clone, '--hook-command', 'node /opt/sy/hook.js']);
    assert.notEqual(installed.code, 0, installed.out);
    assert.match(installed.err, /the hooks folder \.husky \(core\.hooksPath\) is tracked by git/);
    assert.match(
      installed.err,
      /Add this line to the team's hook \.husky\/pre-push instead: .*switchyard guard pre-push/,
    );
    assert.equal(await readFile(join(clone, '.husky', 'pre-push'), 'utf8'), TEAM_HOOK, 'the team hook is untouched');
    assert.deepEqual((await readdir(join(clone, '.husky'))).sort(), ['pre-push']);
    assert.equal(await repoGit(clone)('status', '--porcelain'), '', 'nothing for `git commit -a` to pick up');
  });

  it('installs as before into an untracked hooks folder (.git/hooks)', async () => {
    const installed = await runCli(['guard', 'install', '--repo', clone, '--hook-command', 'node /opt/sy/hook.js']);
    assert.equal(installed.code, 0, installed.err);
    assert.match(await readFile(join(clone, '.git', 'hooks', 'pre-push'), 'utf8'), /guard pre-push/);
  });
});

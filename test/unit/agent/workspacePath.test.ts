import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInWorkspace } from '../../../src/core/agent/workspacePath';
import { ToolError } from '../../../src/core/agent/agentTool';
import { makeTempDir } from '../../helpers/tempRepo';

describe('agent tools: paths stay in the worktree', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let wt: string;
  beforeEach(async () => {
    root = await makeTempDir();
    wt = join(root.dir, 'wt');
    await mkdir(join(wt, 'src'), { recursive: true });
    await writeFile(join(wt, 'src', 'a.ts'), 'a\n');
    await writeFile(join(root.dir, 'outside.txt'), 'secret\n');
    await writeFile(join(wt, '.git'), 'gitdir: /elsewhere\n');
  });
  afterEach(() => root.cleanup());

  const refused = async (path: unknown, message: RegExp) => {
    await assert.rejects(
      resolveInWorkspace(wt, path),
      (error: unknown) => error instanceof ToolError && message.test(error.message),
    );
  };

  it('resolves ordinary relative paths, existing or not', async () => {
    assert.equal(await resolveInWorkspace(wt, 'src/a.ts'), join(wt, 'src', 'a.ts'));
    assert.equal(await resolveInWorkspace(wt, './src/../src/new/b.ts'), join(wt, 'src', 'new', 'b.ts'));
    assert.equal(await resolveInWorkspace(wt, '.'), wt);
  });

  it('refuses absolute paths, .. that leaves, .git and empty paths, saying why', async () => {
    await refused('/etc/passwd', /path "\/etc\/passwd" is absolute: paths are relative to the worktree root/);
    await refused('../outside.txt', /path "..\/outside.txt" leaves the worktree/);
    await refused('src/../../outside.txt', /leaves the worktree/);
    await refused('~/.ssh/id_rsa', /is absolute/);
    await refused('.git/config', /inside \.git/);
    await refused('', /non-empty path/);
    await refused(42, /non-empty path/);
  });

  it('refuses symlinks that lead outside: a folder, a file, a dangling one', async () => {
    await symlink(root.dir, join(wt, 'up'));
    await symlink(join(root.dir, 'outside.txt'), join(wt, 'src', 'out.txt'));
    await symlink(join(root.dir, 'nowhere', 'x'), join(wt, 'dangling'));
    await refused('up/outside.txt', /goes through a symlink that leads outside the worktree/);
    await refused('up/new-file.txt', /goes through a symlink that leads outside/);
    await refused('src/out.txt', /symlink that leads outside/);
    await refused('dangling', /symlink whose target does not exist/);
  });

  it('allows symlinks that stay inside', async () => {
    await symlink(join(wt, 'src'), join(wt, 'alias'));
    assert.equal(await resolveInWorkspace(wt, 'alias/a.ts'), join(wt, 'alias', 'a.ts'));
  });
});

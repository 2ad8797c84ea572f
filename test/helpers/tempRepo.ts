import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { initRepo } from './repoGit';

/** A throwaway git repository with one commit; `cleanup()` removes it. */
export async function makeTempRepo(
  files: Record<string, string> = { 'README.md': '# test\n', 'src/a.txt': 'alpha\n' },
) {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-test-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const git = await initRepo(dir, 'initial');
  return { dir, git, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

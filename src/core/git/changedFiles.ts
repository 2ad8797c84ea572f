import { gitOutput } from './gitExec';

/** One file a commit range changed: added, modified (or its type changed) or deleted. */
export interface ChangedFile {
  path: string;
  status: 'added' | 'modified' | 'deleted';
}

const STATUS: Record<string, ChangedFile['status']> = { A: 'added', M: 'modified', T: 'modified', D: 'deleted' };

/** The files that differ between `base` and `head`, renames counted as a deletion and an addition, sorted by path. */
export async function changedFiles(root: string, base: string, head: string): Promise<ChangedFile[]> {
  const out = await gitOutput(root, ['diff', '--name-status', '--no-renames', '-z', base, head, '--']);
  const parts = out.split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = STATUS[parts[i]?.charAt(0) ?? ''] ?? 'modified';
    files.push({ path: parts[i + 1] ?? '', status });
  }
  return files.filter((f) => f.path).sort((a, b) => a.path.localeCompare(b.path));
}

/** A file's text at `commit`, or undefined when the commit has no such file. */
export async function fileAtCommit(root: string, commit: string, path: string): Promise<string | undefined> {
  const spec = `${commit}:${path}`;
  const exists = await gitOutput(root, ['cat-file', '-e', spec]).then(
    () => true,
    () => false,
  );
  return exists ? gitOutput(root, ['show', spec]) : undefined;
}

import { gitOutput } from './gitExec';

/**
 * The tracked files with changes not committed (staged or not), as `git status` names them. Untracked files are left
 * out: git itself refuses a merge or checkout that would overwrite one.
 */
export async function workingTreeChanges(root: string): Promise<string[]> {
  const out = await gitOutput(root, ['status', '--porcelain=v1', '-z', '--untracked-files=no']);
  const entries = out.split('\0');
  const files: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (entry.length < 4) continue;
    files.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') i++; // a rename's or copy's source path follows
  }
  return files;
}

/** The branch checked out in `root`, or undefined when HEAD is detached. */
export async function currentBranch(root: string): Promise<string | undefined> {
  const name = await gitOutput(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']).then(
    (out) => out.trim(),
    () => '',
  );
  return name || undefined;
}

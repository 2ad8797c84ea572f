import { gitOutput } from '../git/gitExec';
import type { GuardEvidence } from './guardLog';

/** The paths worktree setup puts into every worktree from the main checkout. */
export interface ProvidedPaths {
  /** `worktree.copy`: files whose content is a secret of the run. */
  copy: readonly string[];
  /** `worktree.link`: folders shared with the main checkout. */
  link: readonly string[];
}

/**
 * The files of `base..head` that are a copied path or a linked path (or
 * inside one): Switchyard leaves them out of its own commit, so one in the
 * change was committed by the agent (`git add -f .env`). Names the path,
 * never its content.
 */
export async function providedPathEvidence(
  cwd: string,
  base: string,
  head: string,
  provided: ProvidedPaths,
): Promise<GuardEvidence[]> {
  const copy = new Set(provided.copy.map(clean));
  const link = provided.link.map(clean);
  if (!copy.size && !link.length) return [];
  const out = await gitOutput(cwd, ['diff', '--name-only', '--no-renames', '--diff-filter=d', '-z', base, head]);
  const evidence: GuardEvidence[] = [];
  for (const file of out.split('\0').filter(Boolean)) {
    if (copy.has(file))
      evidence.push({
        file,
        message: 'a file worktree.copy puts into every worktree (a secret of the run) is committed',
      });
    else if (link.some((l) => file === l || file.startsWith(`${l}/`)))
      evidence.push({ file, message: 'a path worktree.link shares from the main checkout is committed' });
  }
  return evidence;
}

function clean(path: string): string {
  return path
    .split(/[\\/]/)
    .filter((p) => p && p !== '.')
    .join('/');
}

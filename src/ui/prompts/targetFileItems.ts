import { normalizeRepoPath, repoPathProblem } from '../../core/model/newTaskSpec';

/** One row of the target-files picker: a path relative to the repository root, ticked or not. */
export interface TargetFileItem {
  readonly path: string;
  readonly picked: boolean;
}

/**
 * The target-files picker's rows: each file once, as the core stores it (normalized, relative to the repository root;
 * a path the core would refuse is left out), the `preselected` ones first and ticked (the file of the editor New
 * Task was started from), then the others by path.
 */
export function targetFileItems(paths: readonly string[], preselected: readonly string[]): TargetFileItem[] {
  const usable = (path: string): string | undefined => {
    const slashed = path.replace(/\\/g, '/');
    return repoPathProblem(slashed) ? undefined : normalizeRepoPath(slashed);
  };
  const ticked = new Set(preselected.map(usable).filter((p): p is string => p !== undefined));
  const rest = new Set(paths.map(usable).filter((p): p is string => p !== undefined && !ticked.has(p)));
  return [
    ...[...ticked].map((path) => ({ path, picked: true })),
    ...[...rest].sort().map((path) => ({ path, picked: false })),
  ];
}

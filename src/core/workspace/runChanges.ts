import { type ChangedFile, changedFiles } from '../git/changedFiles';
import type { Run } from '../model/run';

/** What a run changed: the commits on either side and the files between them (none when it committed nothing). */
export interface RunChanges {
  runId: string;
  branch: string;
  base: string;
  /** The run's commit; absent while it runs, or when it ended before its change was captured. */
  head?: string;
  files: ChangedFile[];
}

export async function runChanges(root: string, run: Run): Promise<RunChanges> {
  const head = run.headCommit;
  const files = head && head !== run.baseCommit ? await changedFiles(root, run.baseCommit, head) : [];
  return { runId: run.id, branch: run.branch, base: run.baseCommit, ...(head ? { head } : {}), files };
}

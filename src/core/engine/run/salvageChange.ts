import { errorMessage } from '../../errors';
import type { Run } from '../../model/run';
import { markSalvage, type CapturedChange } from '../../workspace/worktrees';
import type { RecordFn } from '../recordFn';
import type { RunContext } from '../runContext';

/**
 * Names a failed run's partial work `switchyard/salvage/<run>`, so the next attempt starts from it and an operator can
 * promote it.
 */
export async function salvageChange(
  ctx: RunContext,
  runId: string,
  change: CapturedChange,
  record: RecordFn,
): Promise<Run['salvage']> {
  try {
    const branch = await markSalvage(ctx.root, runId, change.headCommit);
    record('decision', {
      message: `salvaged ${change.stat.files} changed file(s) on ${branch}; the next attempt starts from it`,
    });
    return { branch, commit: change.headCommit, files: change.stat.files };
  } catch (error) {
    record('decision', { message: `could not salvage the partial work: ${errorMessage(error)}` });
    return undefined;
  }
}

import type { MergeOutcome } from '../../core/project/branchService';
import { doneRunId } from '../prompts/pickDoneRun';
import { showMessage } from '../views/showMessage';
import type { CommandDeps } from './commandDeps';
import { takeChangeId } from './takeChangeArg';

/**
 * `switchyard.mergeIntoCurrentBranch(task | run | item)` → the outcome. Merges the run's branch into the branch
 * checked out in the repository. Uncommitted changes or a conflict refuse with the reason (the merge is aborted, the
 * working tree stays as it was).
 */
export async function mergeIntoCurrentBranch(deps: CommandDeps, arg?: unknown): Promise<MergeOutcome> {
  const project = await deps.host.get();
  const runId = await doneRunId(await project.state(), takeChangeId(arg), 'Merge the change of which task?');
  const outcome = await project.branches.merge(runId);
  const run = (await project.state()).runs.find((r) => r.id === runId);
  const branch = run?.branch ?? runId;
  void showMessage(
    'info',
    outcome.upToDate
      ? `Switchyard: ${outcome.into} already has the change of ${branch}; nothing to merge.`
      : `Switchyard: merged ${branch} into ${outcome.into} (${outcome.commit.slice(0, 8)}).`,
  );
  void deps.snapshot.reload();
  return outcome;
}

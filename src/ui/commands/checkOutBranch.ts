import { doneRunId } from '../prompts/pickDoneRun';
import { showMessage } from '../views/showMessage';
import type { CommandDeps } from './commandDeps';
import { takeChangeId } from './takeChangeArg';

/**
 * `switchyard.checkOutBranch(task | run | item)` → the branch. Checks out the run's branch in the repository; refuses
 * on uncommitted changes.
 */
export async function checkOutBranch(deps: CommandDeps, arg?: unknown): Promise<string> {
  const project = await deps.host.get();
  const runId = await doneRunId(await project.state(), takeChangeId(arg), 'Check out the branch of which task?');
  const branch = await project.branches.checkOut(runId);
  void showMessage('info', `Switchyard: checked out ${branch}.`);
  return branch;
}

import { doneRunId } from '../prompts/pickDoneRun';
import type { CommandDeps } from './commandDeps';
import { showRunDiff } from './showRunDiff';
import { takeChangeId } from './takeChangeArg';

/** `switchyard.openChanges(task | run | item)`: a DONE task's change in the diff editor (Show Run Diff of its run). */
export async function openChanges(deps: CommandDeps, arg?: unknown): Promise<string> {
  const project = await deps.host.get();
  const runId = await doneRunId(await project.state(), takeChangeId(arg), 'Open the changes of which task?');
  return showRunDiff(deps, runId);
}

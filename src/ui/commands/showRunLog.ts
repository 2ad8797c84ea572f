import { pickRun } from '../prompts/pickRun';
import { runIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.showRunLog(runId | item)` → the channel's text. Opens the run's output channel ("Switchyard: <run>"):
 * live while the run runs in this window, else its recorded events and decisions.
 */
export async function showRunLog(deps: CommandDeps, arg?: unknown): Promise<string> {
  const given = runIdFrom(arg);
  const runId = given ?? (await pickRun(await (await deps.host.get()).state(), 'Show the output of which run?', true));
  return deps.runOutput.show(runId);
}

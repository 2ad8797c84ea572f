import { errorMessage } from '../../errors';
import { defaultHookCommand, installRunWorktreeHook } from '../../guards';
import type { RecordFn } from '../recordFn';
import type { RunContext } from '../runContext';

/**
 * Puts the pre-push guard into a run's worktree (its own hooks folder, so
 * the repository's hooks stay as they are), so a lane that pushes is
 * checked like a person would be. Fail-safe: a failure is recorded and the
 * run goes on.
 */
export async function installRunHook(ctx: RunContext, worktree: string, record: RecordFn): Promise<void> {
  const command = ctx.hookCommand === undefined ? defaultHookCommand() : ctx.hookCommand;
  if (command === null) return;
  if (command === undefined) {
    record('decision', {
      message:
        'pre-push guard not installed in the worktree: the Switchyard CLI that runs it was not found (runs started with `switchyard run` have it)',
    });
    return;
  }
  try {
    const installed = await installRunWorktreeHook(worktree, command);
    record('decision', { message: `pre-push guard installed in ${installed.hooksDir}` });
  } catch (error) {
    record('decision', {
      message: `pre-push guard not installed in the worktree (the run goes on): ${errorMessage(error)}`,
    });
  }
}

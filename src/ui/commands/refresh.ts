import type { ProjectState } from '../../core/project/project';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.refresh()` → the project state as read now, as the views show it (the unfinished tasks and the newest
 * finished ones; they re-render); why it cannot be read is an error.
 */
export async function refresh(deps: CommandDeps): Promise<ProjectState> {
  const state = await deps.snapshot.reload();
  if (!state)
    throw deps.snapshot.error instanceof Error
      ? deps.snapshot.error
      : new Error('the Switchyard project could not be read');
  return state;
}

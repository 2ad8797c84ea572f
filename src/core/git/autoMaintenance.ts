import { git } from './gitExec';

/**
 * `git commit` starts `git maintenance run --auto` after every commit (git 2.29 and later; `gc --auto` before), which
 * packs loose objects once there are many. Run commits skip it (`maintenance.auto=false`, a process a task fewer);
 * a drain that committed runs it once at its end instead, so the objects of many runs are still packed in time.
 */
export const SKIP_AUTO_MAINTENANCE = ['-c', 'maintenance.auto=false'] as const;

/** `git maintenance run --auto` in the repository: cheap when there is nothing to do. Never fails the caller. */
export async function runAutoMaintenance(root: string): Promise<void> {
  await git(root, ['maintenance', 'run', '--auto', '--quiet']).catch(() => undefined);
}

import { type GitRunner, useGitRunner } from '../../git/gitExec';
import { readySupervisor } from '../../process/sharedSupervisor';

/** How long a git command may go on once its owner died, before the supervisor kills it (git is short). */
export const GIT_OWNER_GONE_MS = 10_000;

/** git spawned by this process's supervisor, when it is ready (else directly, while it starts). */
const throughSupervisor: GitRunner = (run, events) =>
  readySupervisor()?.exec(
    { file: 'git', args: run.args, cwd: run.cwd, env: run.env, ownerGoneMs: GIT_OWNER_GONE_MS },
    events,
  );

let holders = 0;
let previous: ReturnType<typeof useGitRunner>;

/**
 * While a drain runs, git is spawned by the process-group supervisor (see sharedSupervisor.ts), not by this process:
 * the fork, whose cost grows with this process's memory, happens in the small supervisor on another core, and this
 * process only writes and reads frames. Returns the release; when the last holder releases, git runs directly again.
 */
export function superviseGit(): () => void {
  if (holders++ === 0) previous = useGitRunner(throughSupervisor);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) useGitRunner(previous);
  };
}

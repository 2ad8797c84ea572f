import { resolveRepoRoot } from '../../core/project/repositoryRoot';
import { type CliContext, repoFlag } from '../cliContext';
import { isTrusted, setTrust, trustFilePath } from '../trustedWorkspaces';

/**
 * `switchyard trust [--revoke]`: allow (or stop allowing) what this repository carries to apply whatever its
 * class (run commands, route credentials, read outside the worktree, weaken caps), and the tasks of a state git
 * tracks to run.
 */
export async function trustCommand(ctx: CliContext): Promise<number> {
  const root = await resolveRepoRoot(repoFlag(ctx));
  if (ctx.flags.revoke) {
    await setTrust(root, false, ctx.env);
    ctx.out(
      `${root} is no longer trusted: of the settings it carries only plain ones apply (none that runs a command, routes a credential, reads outside the worktree or weakens a cap) (${trustFilePath(ctx.env)})`,
    );
  } else if (await isTrusted(root, ctx.env)) {
    ctx.out(`${root} is already trusted`);
  } else {
    await setTrust(root, true, ctx.env);
    ctx.out(
      `${root} is trusted: every setting it carries applies (commands, URLs, copied files, caps, lane modules), and the tasks of a state file git tracks run (${trustFilePath(ctx.env)})`,
    );
  }
  return 0;
}

import { resolveRepoRoot } from '../../core/workspace/gitRepo';
import { type CliContext, repoFlag } from '../cliContext';
import { isTrusted, setTrust, trustFilePath } from '../trustedWorkspaces';

/** `switchyard trust [--revoke]`: allow (or stop allowing) this repository's settings to load lane modules. */
export async function trustCommand(ctx: CliContext): Promise<number> {
  const root = await resolveRepoRoot(repoFlag(ctx));
  if (ctx.flags.revoke) {
    await setTrust(root, false, ctx.env);
    ctx.out(
      `${root} is no longer trusted: its lane modules will not be loaded, nor the commands of its ` +
        `.switchyard/config.json run (${trustFilePath(ctx.env)})`,
    );
  } else if (await isTrusted(root, ctx.env)) {
    ctx.out(`${root} is already trusted`);
  } else {
    await setTrust(root, true, ctx.env);
    ctx.out(
      `${root} is trusted: the lane modules its settings name will be loaded, and the commands of its ` +
        `.switchyard/config.json run (${trustFilePath(ctx.env)})`,
    );
  }
  return 0;
}

import { resolveRepoRoot } from '../../core/workspace/gitRepo';
import type { CliContext } from '../cliContext';
import { isTrusted, setTrust, trustFilePath } from '../trustedWorkspaces';

/** `switchyard trust [--revoke]`: allow (or stop allowing) this repository's settings to load lane modules. */
export async function trustCommand(ctx: CliContext): Promise<number> {
  const root = await resolveRepoRoot(typeof ctx.flags.repo === 'string' ? ctx.flags.repo : ctx.cwd);
  if (ctx.flags.revoke) {
    await setTrust(root, false);
    ctx.out(`${root} is no longer trusted: its lane modules will not be loaded (${trustFilePath()})`);
  } else if (await isTrusted(root)) {
    ctx.out(`${root} is already trusted`);
  } else {
    await setTrust(root, true);
    ctx.out(`${root} is trusted: the lane modules its settings name will be loaded (${trustFilePath()})`);
  }
  return 0;
}

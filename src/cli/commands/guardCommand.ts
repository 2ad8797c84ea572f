import { errorMessage } from '../../core/errors';
import {
  defaultHookCommand,
  formatEvidence,
  installPrePushHook,
  runPrePushGuard,
  scanBranchPush,
  scanCommittedTree,
} from '../../core/project/repositoryGuards';
import { type CliContext, UsageError, flagString, readStdin, repoFlag, requirePositional } from '../cliContext';

/** `switchyard guard install | pre-push <remote> <url> | scan [--full]` */
export async function guardCommand(ctx: CliContext): Promise<number> {
  const sub = requirePositional(ctx, 0, 'guard subcommand: install, pre-push or scan');
  if (sub === 'install') return install(ctx);
  if (sub === 'pre-push') return prePush(ctx);
  if (sub === 'scan') return scan(ctx);
  throw new UsageError(`unknown guard subcommand "${sub}"; subcommands: install, pre-push, scan`);
}

function repoDir(ctx: CliContext): string {
  return repoFlag(ctx);
}

async function install(ctx: CliContext): Promise<number> {
  const command = flagString(ctx, 'hook-command') ?? defaultHookCommand();
  if (!command)
    throw new UsageError(
      'cannot tell how to run this CLI from a hook; pass --hook-command "<command that runs switchyard>" (or run the built dist/cli.js)',
    );
  const result = await installPrePushHook(repoDir(ctx), command);
  ctx.out(
    `${result.alreadyInstalled ? 'updated' : 'installed'} the pre-push guard: ` +
      `${result.hookPath}${result.scope === 'worktree' ? ' (this worktree only)' : ''}`,
  );
  if (result.chained) ctx.out(`the previous hook runs after it: ${result.chained}`);
  return 0;
}

/**
 * git runs this from the hook with its pre-push stdin. Exit 1 only when a guard blocks; an internal error exits 0
 * (recorded).
 */
async function prePush(ctx: CliContext): Promise<number> {
  const remote = ctx.positionals[1] ?? 'origin';
  try {
    const stdin = await readStdin(ctx, true);
    const report = await runPrePushGuard({ cwd: repoDir(ctx), remote, stdin });
    for (const line of report.lines) ctx.err(line);
    return report.blocked ? 1 : 0;
  } catch (error) {
    // runPrePushGuard does not throw; this is the last line of fail-safety.
    ctx.err(`switchyard pre-push guard: internal error (${errorMessage(error)}); push allowed`);
    return 0;
  }
}

/**
 * Checks the current branch against its upstream as a push would, or (`--full`) the whole committed tree for conflict
 * markers.
 */
async function scan(ctx: CliContext): Promise<number> {
  if (ctx.flags.full) {
    const result = await scanCommittedTree(repoDir(ctx));
    if (result.verdict === 'error') throw new Error(`the scan could not run: ${result.error}`);
    for (const e of result.evidence) ctx.out(formatEvidence(e));
    ctx.out(
      result.verdict === 'block'
        ? `${result.evidence.length} conflict marker(s) committed`
        : 'no conflict markers committed',
    );
    return result.verdict === 'block' ? 1 : 0;
  }
  const report = await scanBranchPush(repoDir(ctx));
  for (const line of report.lines) ctx.out(line);
  for (const r of report.results) ctx.out(`${r.guard}: ${r.verdict}${r.verdict === 'error' ? ` (${r.error})` : ''}`);
  return report.blocked ? 1 : 0;
}

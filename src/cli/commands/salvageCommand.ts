import { type CliContext, UsageError, flagString, openProject, requirePositional } from '../cliContext';
import { table } from '../format';

/**
 * `switchyard salvage list [--json]` and
 * `switchyard salvage promote <run> [--to <branch>] [--onto <rev>]`.
 */
export async function salvageCommand(ctx: CliContext): Promise<number> {
  const [action] = ctx.positionals;
  if (action === 'list' || action === undefined) return list(ctx);
  if (action === 'promote') return promote(ctx);
  throw new UsageError(`unknown salvage action "${action}"; use list or promote`);
}

async function list(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const entries = await project.worktrees.salvaged();
  if (ctx.flags.json) {
    ctx.out(JSON.stringify(entries, null, 2));
    return 0;
  }
  if (!entries.length) {
    ctx.out('No salvaged work: only failed or interrupted runs that left changes have some.');
    return 0;
  }
  ctx.out(
    table(
      ['RUN', 'STATE', 'FILES', 'BRANCH', 'COMMIT', 'TASK'],
      entries.map((e) => [
        e.runId,
        e.state,
        String(e.files),
        e.branchExists ? e.branch : `${e.branch} (gone)`,
        e.commit.slice(0, 12),
        `${e.taskId} ${e.title}`,
      ]),
    ),
  );
  ctx.out('\nPromote one with: switchyard salvage promote <run> [--to <branch>] [--onto HEAD]');
  return 0;
}

async function promote(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const runId = requirePositional(ctx, 1, 'run id (see `switchyard salvage list`)');
  const promotion = await project.worktrees.promoteSalvage(runId, {
    to: flagString(ctx, 'to'),
    onto: flagString(ctx, 'onto'),
  });
  const what = {
    created: `created branch ${promotion.branch} at the salvage commit`,
    'fast-forwarded': `fast-forwarded branch ${promotion.branch} to the salvage commit`,
    unchanged: `branch ${promotion.branch} already points at the salvage commit`,
    applied: `created branch ${promotion.branch} with the salvaged diff as one commit on ${flagString(ctx, 'onto')}`,
  }[promotion.action];
  ctx.out(
    `${runId}: ${what} (${promotion.commit.slice(0, 12)}, ${promotion.files} file(s)); your working tree was not touched.`,
  );
  ctx.out(`Next: git switch ${promotion.branch}`);
  return 0;
}

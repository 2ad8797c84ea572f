import { type CliContext, openProject } from '../cliContext';
import { formatStatus, worktreeLine } from '../format';
import { pipelineStatus } from '../../core/report/pipelineStatus';
import { latestPullRequest } from '../../core/report/pullRequestLines';
import { guardCountsOver, guardStatusLines, loadGuardEvents } from '../../core/report/guardStatusLines';
import { summarizeGuards } from '../../core/report/guardSummary';

/** How many finished tasks `status` shows without `--all` or `--finished`. */
export const STATUS_FINISHED = 10;

/** `switchyard status [--json] [--all | --finished N]`: the active tasks and the newest finished ones. */
export async function statusCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const finished = typeof ctx.flags.finished === 'number' ? ctx.flags.finished : STATUS_FINISHED;
  const { state, more } = ctx.flags.all
    ? { state: await project.state(), more: false }
    : await project.recentState(finished);
  const guards = await loadGuardEvents(project.root);
  const worktrees = await project.worktrees.usage();
  if (ctx.flags.json) {
    ctx.out(
      JSON.stringify(
        {
          root: project.root,
          settings: state.settings,
          tasks: state.tasks,
          runs: state.runs,
          olderFinishedOmitted: more,
          pipeline: pipelineStatus(state),
          pullRequests: state.tasks.flatMap((t) => {
            const pr = latestPullRequest(state, t.id);
            return pr ? [{ task: t.id, ...pr }] : [];
          }),
          breakers: state.breakers,
          guards: summarizeGuards(guards.events),
          guardCountsOver: guardCountsOver(guards),
          guardLogError: guards.error,
          worktrees,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  ctx.out(formatStatus(state));
  if (more) ctx.out(`(older finished tasks not shown: \`switchyard status --all\` lists every task)`);
  ctx.out(worktreeLine(worktrees));
  const lines = guardStatusLines(guards.events);
  if (lines.length || guards.error)
    ctx.out(
      [
        '',
        `Guards (latest verdict each; ${guardCountsOver(guards)}):`,
        ...lines.map((l) => `  ${l}`),
        ...(guards.error ? [`  guard log unreadable: ${guards.error}`] : []),
      ].join('\n'),
    );
  return 0;
}

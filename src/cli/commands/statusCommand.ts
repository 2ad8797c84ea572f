import { type CliContext, openProject } from '../cliContext';
import { formatStatus, worktreeLine } from '../format';
import { pipelineStatus } from '../../core/report/pipelineStatus';
import { latestPullRequest } from '../../core/report/pullRequestLines';
import { guardStatusLines, loadGuardEvents } from '../../core/guards/guardStatusLines';
import { summarizeGuards } from '../../core/guards/guardSummary';

/** `switchyard status [--json]` */
export async function statusCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const state = await project.state();
  const guards = await loadGuardEvents(project.root);
  const worktrees = await project.worktreeUsage();
  if (ctx.flags.json) {
    ctx.out(
      JSON.stringify(
        {
          root: project.root,
          settings: state.settings,
          tasks: state.tasks,
          runs: state.runs,
          pipeline: pipelineStatus(state),
          pullRequests: state.tasks.flatMap((t) => {
            const pr = latestPullRequest(state, t.id);
            return pr ? [{ task: t.id, ...pr }] : [];
          }),
          breakers: state.breakers,
          guards: summarizeGuards(guards.events),
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
  ctx.out(worktreeLine(worktrees));
  const lines = guardStatusLines(guards.events);
  if (lines.length || guards.error)
    ctx.out(
      [
        '',
        'Guards (latest verdict each):',
        ...lines.map((l) => `  ${l}`),
        ...(guards.error ? [`  guard log unreadable: ${guards.error}`] : []),
      ].join('\n'),
    );
  return 0;
}

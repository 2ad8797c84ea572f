import { type CliContext, openProject } from '../cliContext';
import { formatStatus } from '../format';
import { pipelineStatus } from '../../core/report/pipelineStatus';

/** `switchyard status [--json]` */
export async function statusCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const state = await project.state();
  if (ctx.flags.json) ctx.out(JSON.stringify({ root: project.root, settings: state.settings, tasks: state.tasks, runs: state.runs, pipeline: pipelineStatus(state), breakers: state.breakers }, null, 2));
  else ctx.out(formatStatus(state));
  return 0;
}

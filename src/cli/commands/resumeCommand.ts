import { type CliContext, openProject } from '../cliContext';
import { runLine } from '../format';

/** `switchyard resume`: resumes interrupted runs whose owner is gone, and starts nothing new. */
export async function resumeCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const summary = await project.runQueue({
    resumeOnly: true,
    onRunFinished: (run) => ctx.out(`${run.state === 'SUCCEEDED' ? '✔' : '✖'} ${runLine(run)}`),
  });
  for (const line of summary.recovered) ctx.out(line);
  if (!summary.resumed.length && !summary.recovered.length) ctx.out('Nothing to resume: no interrupted run whose owner is gone.');
  else if (summary.resumed.length) ctx.out(`resumed ${summary.resumed.join(', ')}`);
  return 0;
}

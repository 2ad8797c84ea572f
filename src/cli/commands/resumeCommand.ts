import { type CliContext, openProject } from '../cliContext';
import { runLine } from '../format';
import type { Run } from '../../core/model/run';
import type { QueueSummary } from '../../core/project/project';

/**
 * `switchyard resume`: resumes interrupted runs whose owner is gone, and starts nothing new. Exits 1 when a run it
 * resumed failed.
 */
export async function resumeCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const summary = await project.runQueue({
    resumeOnly: true,
    onRunFinished: (run) => ctx.out(`${run.state === 'SUCCEEDED' ? '✔' : '✖'} ${runLine(run)}`),
  });
  for (const line of summary.recovered) ctx.out(line);
  if (!summary.resumed.length && !summary.recovered.length)
    ctx.out('Nothing to resume: no interrupted run whose owner is gone.');
  else if (summary.resumed.length) ctx.out(`resumed ${summary.resumed.join(', ')}`);
  const failed = resumedAndFailed(summary);
  if (failed.length) ctx.err(`resumed run(s) failed: ${failed.map((r) => `${r.id} (${r.failureCode})`).join(', ')}`);
  return failed.length ? 1 : 0;
}

/** The runs a drain resumed from their journals that ended FAILED (a lost or damaged journal, or the lane failed). */
export function resumedAndFailed(summary: QueueSummary): Run[] {
  const resumed = new Set(summary.resumed);
  return summary.runs.filter((r) => resumed.has(r.id) && r.state === 'FAILED');
}

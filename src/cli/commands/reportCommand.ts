import { SUMMARY_KINDS, type ProjectReport, type ReportEvent } from '../../core/report/buildReport';
import { type CliContext, flagList, openProject } from '../cliContext';
import { pullRequestLines } from '../../core/report/pullRequestLines';

/** How many finished tasks `report` covers without `--all`, `--finished` or `--task`. */
export const REPORT_FINISHED = 20;

/**
 * `switchyard report [--trace] [--json] [--all | --finished N] [--task ID]…`: a readable account of every decision,
 * over the active tasks and the newest finished ones (`--all`: every task; `--task`: those tasks, wherever they are).
 */
export async function reportCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const only = new Set(flagList(ctx, 'task'));
  const finished = typeof ctx.flags.finished === 'number' ? ctx.flags.finished : REPORT_FINISHED;
  const report = await project.report(ctx.flags.all || only.size ? {} : { finished });
  if (only.size) report.tasks = report.tasks.filter((t) => only.has(t.id));
  if (ctx.flags.json) {
    ctx.out(JSON.stringify(report, null, 2));
    return 0;
  }
  ctx.out(formatReport(report, Boolean(ctx.flags.trace)));
  return 0;
}

export function formatReport(report: ProjectReport, trace: boolean): string {
  const lines = [`Pipeline: ${report.pipeline}`];
  if (report.breakers.length) lines.push(`Breakers: ${report.breakers.join('; ')}`);
  const scheduler = trace
    ? report.scheduler
    : report.scheduler.filter((e) => e.kind === 'waited' || /breaker|backpressure/.test(e.message));
  if (scheduler.length) {
    lines.push('', 'Scheduler');
    for (const e of scheduler) lines.push(line(e, trace));
  }
  if (!report.tasks.length) lines.push('', report.finished?.more ? 'No active or recent tasks.' : 'No tasks yet.');
  for (const task of report.tasks) {
    const merged = task.integration
      ? `; merged into ${task.integration.branch} as ${task.integration.commit.slice(0, 12)}`
      : '';
    lines.push(
      '',
      `${task.id} · ${task.title} — ${task.state} on lane ${task.lane}, ${task.runs.length} run(s)${merged}`,
    );
    if (task.pullRequest) lines.push(...pullRequestLines(task.pullRequest).map((l) => `  ${l}`));
    if (task.blockedBy?.length) lines.push(`  blocked by ${task.blockedBy.join(', ')}`);
    if (task.failureReason && task.state !== 'DONE')
      lines.push(`  ${task.state === 'FAILED' ? 'failure' : 'note'}: ${task.failureReason}`);
    for (const e of task.events) if (trace || SUMMARY_KINDS.has(e.kind)) lines.push(line(e, trace));
  }
  if (report.finished?.more)
    lines.push(
      '',
      `(the active tasks${report.finished.shown ? ` and the ${report.finished.shown} newest finished ones` : ''}; older finished tasks left out: \`switchyard report --all\` covers every task)`,
    );
  return lines.join('\n');
}

function line(e: ReportEvent, trace: boolean): string {
  const time = trace ? e.ts : e.ts.slice(11, 19);
  return `  ${time}  ${e.kind.padEnd(8)} ${e.run ? `${e.run}: ` : ''}${e.message}`;
}

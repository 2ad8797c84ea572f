import { type CliContext, flagList, flagNumber, openProject } from '../cliContext';
import { runLine } from '../format';
import { resumedAndFailed } from './resumeCommand';
import { fileWaitLine } from '../../core/model/fileWaits';

/**
 * `switchyard run [--task <id>]… [--concurrency N]`: drains the queue. Exits 1 when a task it ran, or a run it resumed,
 * failed.
 */
export async function runCommand(ctx: CliContext): Promise<number> {
  const concurrency = flagNumber(ctx, 'concurrency');
  const project = await openProject(ctx);
  const only = flagList(ctx, 'task');
  const stop = new AbortController();
  const onSignal = (): void => {
    ctx.err('stopping: aborting running runs (their tasks go back to READY)…');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const summary = await project.runQueue({
      taskIds: only.length ? only : undefined,
      concurrency,
      signal: stop.signal,
      onRunStarted: (run, task) => ctx.out(`▶ ${run.id} ${task.spec.title} on ${run.lane} (attempt ${run.attempt})`),
      onRunFinished: (run) => ctx.out(`${run.state === 'SUCCEEDED' ? '✔' : '✖'} ${runLine(run)}`),
    });
    for (const line of summary.recovered) ctx.out(line);
    if (summary.resumed.length) ctx.out(`resumed from their journals: ${summary.resumed.join(', ')}`);
    // The drain's tasks as they ended, in the order their runs ended (the newest: found without the whole history).
    const touched = [...new Set(summary.runs.map((r) => r.taskId))];
    const found = await project.tasks.find(touched);
    const tasks = touched.flatMap((id) => found.get(id) ?? []);
    if (!summary.runs.length) ctx.out('Nothing to run: no READY task whose dependencies are DONE.');
    for (const t of tasks)
      ctx.out(`${t.id} ${t.state}${t.failureReason && t.state !== 'DONE' ? `: ${t.failureReason}` : ''}`);
    for (const w of summary.waiting) ctx.out(`${w.taskId} waits on ${w.on.join(', ')}`);
    for (const w of summary.fileWaits) ctx.out(fileWaitLine(w, 'in this terminal'));
    const resumedFailed = resumedAndFailed(summary);
    if (resumedFailed.length)
      ctx.err(`resumed run(s) failed: ${resumedFailed.map((r) => `${r.id} (${r.failureCode})`).join(', ')}`);
    return tasks.some((t) => t.state === 'FAILED') || resumedFailed.length ? 1 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

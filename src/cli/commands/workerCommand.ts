import { type CliContext, flagNumber, flagString, openProject } from '../cliContext';
import { runLine } from '../format';

/**
 * `switchyard worker [--concurrency N] [--name NAME] [--grace SECONDS] [--poll-ms MS] [--once]`:
 * a headless worker on the project's backend (any machine that can reach
 * it). It drains the queue, then waits for a change (LISTEN/NOTIFY on
 * PostgreSQL, the state file on files) or the poll interval, and drains
 * again; while busy it also takes over runs whose owner is gone. SIGTERM or
 * SIGINT: stop claiming, let running runs finish for up to --grace seconds,
 * then hand back what still runs (its lease expires at once, another
 * worker resumes it from the journal). A second signal hands back at once.
 */
export async function workerCommand(ctx: CliContext): Promise<number> {
  const graceS = flagNumber(ctx, 'grace') ?? 30;
  const pollMs = flagNumber(ctx, 'poll-ms') ?? 2000;
  const concurrency = flagNumber(ctx, 'concurrency');
  const name = flagString(ctx, 'name');
  const project = await openProject(ctx, name ? { ownerName: name } : {});

  const drain = new AbortController();
  const handBack = new AbortController();
  let graceTimer: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!drain.signal.aborted) {
      ctx.err(
        `${signal}: no new runs; finishing running runs for up to ${graceS} s, then handing back what still runs`,
      );
      drain.abort();
      graceTimer = setTimeout(() => handBack.abort(), graceS * 1000);
    } else if (!handBack.signal.aborted) {
      ctx.err(`${signal} again: handing back running runs now`);
      handBack.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let wake: (() => void) | undefined;
  const feed = project.onExternalChange(() => wake?.());
  const leaseMs = (await project.state()).settings.leaseMs;
  const totals = { finished: 0, resumed: 0, handedBack: 0 };
  ctx.out(`worker ${project.owner} on ${project.backendInfo.description}`);
  try {
    while (!drain.signal.aborted) {
      const summary = await project.runQueue({
        stopClaiming: drain.signal,
        handBack: handBack.signal,
        maxActive: concurrency,
        recoverEveryMs: Math.max(100, Math.floor(leaseMs / 2)),
        onRunStarted: (run, task) => ctx.out(`▶ ${run.id} ${task.spec.title} on ${run.lane} (attempt ${run.attempt})`),
        onRunFinished: (run) => {
          if (run.state === 'RUNNING') {
            totals.handedBack += 1;
            ctx.out(`↩ ${run.id} handed back`);
          } else {
            totals.finished += 1;
            ctx.out(`${run.state === 'SUCCEEDED' ? '✔' : '✖'} ${runLine(run)}`);
          }
        },
      });
      for (const line of summary.recovered) ctx.out(line);
      if (summary.resumed.length) ctx.out(`resumed from their journals: ${summary.resumed.join(', ')}`);
      totals.resumed += summary.resumed.length;
      if (ctx.flags.once) break;
      await idle(pollMs, drain.signal, (fn) => (wake = fn));
    }
  } finally {
    if (graceTimer) clearTimeout(graceTimer);
    feed.dispose();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  ctx.out(
    `worker stopped: ${totals.finished} run(s) finished, ${totals.resumed} resumed, ${totals.handedBack} handed back`,
  );
  return 0;
}

/** Waits for a change notification, the poll interval, or the stop signal. */
function idle(ms: number, stop: AbortSignal, setWake: (fn: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      setWake(() => undefined);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.addEventListener('abort', done, { once: true });
    setWake(done);
  });
}

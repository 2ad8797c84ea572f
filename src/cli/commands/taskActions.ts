import { type CliContext, flagString, openProject, requirePositional } from '../cliContext';
import { logLineText } from '../logLineText';

/** `switchyard diff <run>` */
export async function diffCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const diff = await project.runs.diff(requirePositional(ctx, 0, 'run id (see `switchyard status`)'));
  ctx.out(diff.trimEnd() || '(empty diff: the run changed nothing)');
  return 0;
}

/** `switchyard log <run>`: the run's recorded events and decisions. */
export async function logCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const runId = requirePositional(ctx, 0, 'run id');
  await project.runs.diff(runId).catch(() => undefined);
  for (const line of await project.runs.log(runId)) ctx.out(logLineText(line));
  return 0;
}

/** `switchyard cancel <task>` */
export async function cancelCommand(ctx: CliContext): Promise<number> {
  const task = await (await openProject(ctx)).tasks.cancel(requirePositional(ctx, 0, 'task id'));
  ctx.out(`${task.id} ${task.state}`);
  return 0;
}

/** `switchyard retry <task>` */
export async function retryCommand(ctx: CliContext): Promise<number> {
  const task = await (await openProject(ctx)).tasks.retry(requirePositional(ctx, 0, 'task id'));
  ctx.out(`${task.id} ${task.state}`);
  return 0;
}

/** `switchyard close-pr <task>`: closes the task's open pull request on GitHub without merging it. */
export async function closePullRequestCommand(ctx: CliContext): Promise<number> {
  const closed = await (await openProject(ctx)).branches.closePullRequest(requirePositional(ctx, 0, 'task id'));
  const how = {
    closed: 'closed',
    merged: 'was merged meanwhile: nothing closed',
    'already-closed': 'was already closed',
  }[closed.outcome];
  ctx.out(`${closed.taskId}: pull request #${closed.number} ${how} (${closed.url})`);
  return 0;
}

/** `switchyard default-lane [<lane>]` */
export async function defaultLaneCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const lane = ctx.positionals[0];
  if (lane) {
    const change = await project.routing.setDefaultLane(lane, flagString(ctx, 'why') ?? 'set from the CLI');
    ctx.err(`recorded change #${change.id}: default lane ${change.previous.defaultLane} → ${change.next.defaultLane}`);
  }
  ctx.out((await project.state()).settings.defaultLane);
  return 0;
}

/** `switchyard worktrees [--clean]` */
export async function worktreesCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  if (ctx.flags.clean) {
    const removed = await project.worktrees.clean();
    ctx.out(removed.length ? removed.map((p) => `removed ${p}`).join('\n') : 'no worktrees to clean');
    return 0;
  }
  const list = await project.worktrees.list();
  ctx.out(
    list.length ? list.map((w) => `${w.path}  ${w.branch ?? '(detached)'}`).join('\n') : 'no Switchyard worktrees',
  );
  return 0;
}

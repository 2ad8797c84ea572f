import { type CliContext, openProject, requirePositional } from '../cliContext';

/** `switchyard approve <task>…`: DRAFT tasks become READY and can be scheduled. */
export async function approveCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const ids = ctx.positionals.length ? ctx.positionals : [requirePositional(ctx, 0, 'task id')];
  for (const id of ids) {
    const task = await project.tasks.approve(id);
    ctx.out(`${task.id} ${task.state}`);
  }
  return 0;
}

import { type CliContext, openProject, requirePositional } from '../cliContext';

/** `switchyard merge <task>`: a DONE task's change into the checked-out branch, as one commit. */
export async function mergeCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const id = requirePositional(ctx, 0, 'task id (see `switchyard status`)');
  const outcome = await project.branches.merge(id);
  ctx.out(
    outcome.upToDate
      ? `${outcome.into} already has the change of ${id}; nothing to merge`
      : `merged ${id} into ${outcome.into} as one commit ${outcome.commit.slice(0, 12)}`,
  );
  return 0;
}

/** `switchyard checkout <task>`: the branch of a task's last run, checked out in the repository. */
export async function checkoutCommand(ctx: CliContext): Promise<number> {
  const project = await openProject(ctx);
  const branch = await project.branches.checkOut(requirePositional(ctx, 0, 'task id (see `switchyard status`)'));
  ctx.out(`checked out ${branch}`);
  return 0;
}

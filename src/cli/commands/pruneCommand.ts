import { type CliContext, openProject } from '../cliContext';

/** `switchyard prune`: deletes now the branches of DONE tasks whose change was integrated or merged. */
export async function pruneCommand(ctx: CliContext): Promise<number> {
  const lines = await (await openProject(ctx)).branches.prune();
  ctx.out(lines.length ? lines.join('\n') : 'no branches to prune');
  return lines.some((l) => / not deleted/.test(l)) ? 1 : 0;
}

import { resolveRepoRoot } from '../../core/project/repositoryRoot';
import { migrateToPostgres } from '../../core/project/backendChoice';
import { type CliContext, cliBackendSpec, openProject, repoFlag, UsageError } from '../cliContext';

/**
 * `switchyard backend`: which backend the project uses and what is in it.
 * `switchyard backend migrate`: the one-way copy of the files backend into
 * PostgreSQL (needs SWITCHYARD_DATABASE_URL; the target comes from the same
 * settings as `--backend postgres`).
 */
export async function backendCommand(ctx: CliContext): Promise<number> {
  const sub = ctx.positionals[0];
  if (sub === 'migrate') return migrate(ctx);
  if (sub !== undefined)
    throw new UsageError(`unknown backend command "${sub}": use \`backend\` or \`backend migrate\``);
  const project = await openProject(ctx);
  const state = await project.state();
  const counts = new Map<string, number>();
  for (const t of state.tasks) counts.set(t.state, (counts.get(t.state) ?? 0) + 1);
  const byState = counts.size ? ` (${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')})` : '';
  const { kind, description } = project.backendInfo;
  ctx.out(`backend: ${kind} (${description})`);
  ctx.out(`tasks: ${state.tasks.length}${byState}; runs: ${state.runs.length}; revision ${state.revision}`);
  return 0;
}

async function migrate(ctx: CliContext): Promise<number> {
  const root = await resolveRepoRoot(repoFlag(ctx));
  const postgres = () => {
    const spec = cliBackendSpec(ctx, root);
    if (spec.kind !== 'postgres')
      throw new UsageError(
        'backend migrate copies into PostgreSQL: pass --backend postgres (or SWITCHYARD_BACKEND=postgres) and set SWITCHYARD_DATABASE_URL',
      );
    return spec;
  };
  const result = await migrateToPostgres(root, postgres, (target) =>
    ctx.out(`copying ${root}/.switchyard into ${target}…`),
  );
  if ('already' in result) {
    const { target, project, at } = result.already;
    ctx.err(`already migrated to ${target} (project ${project}) on ${at}`);
    return 1;
  }
  const report = result.migrated;
  for (const w of report.warnings) ctx.err(`warning: ${w}`);
  ctx.out(
    `migrated ${report.tasks} task(s), ${report.runs} run(s) and ${report.events} journal event(s) of ${report.journals} run(s) to ${report.target}, project ${report.project}; read back and compared.`,
  );
  ctx.out(
    'The files backend of this repository is now closed for writing. Use --backend postgres (or SWITCHYARD_BACKEND=postgres) and, in VS Code, switchyard.backend "postgres".',
  );
  return 0;
}

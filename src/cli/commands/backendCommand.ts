import { resolveRepoRoot } from '../../core/workspace/gitRepo';
import { readMigratedMarker } from '../../core/backend/migratedMarker';
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
  const marker = await readMigratedMarker(root);
  if (marker) {
    ctx.err(`already migrated to ${marker.target} (project ${marker.project}) on ${marker.at}`);
    return 1;
  }
  const spec = cliBackendSpec(ctx, root);
  if (spec.kind !== 'postgres')
    throw new UsageError(
      'backend migrate copies into PostgreSQL: pass --backend postgres (or SWITCHYARD_BACKEND=postgres) and set SWITCHYARD_DATABASE_URL',
    );
  // pg loads only here and in a project on the postgres backend, not with every command.
  const { PostgresBackend } = await import('../../core/backend/postgres/postgresBackend');
  const { migrateFilesToPostgres } = await import('../../core/backend/postgres/migrateFilesToPostgres');
  const target = await PostgresBackend.open(spec);
  try {
    ctx.out(`copying ${root}/.switchyard into ${target.description}…`);
    const report = await migrateFilesToPostgres(root, target);
    for (const w of report.warnings) ctx.err(`warning: ${w}`);
    ctx.out(
      `migrated ${report.tasks} task(s), ${report.runs} run(s) and ${report.events} journal event(s) of ${report.journals} run(s) to ${report.target}, project ${report.project}; read back and compared.`,
    );
    ctx.out(
      'The files backend of this repository is now closed for writing. Use --backend postgres (or SWITCHYARD_BACKEND=postgres) and, in VS Code, switchyard.backend "postgres".',
    );
    return 0;
  } finally {
    await target.close();
  }
}

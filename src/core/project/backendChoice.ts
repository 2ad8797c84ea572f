import type { BackendSpec } from '../backend/backendSpec';
import { readMigratedMarker } from '../backend/migratedMarker';
import type { MigrationReport } from '../backend/postgres/migrateFilesToPostgres';

export { resolveBackendSpec, type BackendSpec } from '../backend/backendSpec';
export { describePgUrl, parsePgUrl } from '../backend/postgres/pgUrl';
export type { MigrationReport } from '../backend/postgres/migrateFilesToPostgres';

/** Where a project's files backend already went: the marker the migration left (`.switchyard/migrated.json`). */
export interface AlreadyMigrated {
  target: string;
  project: string;
  at: string;
}

/**
 * The one-way copy of the files backend of the repository at `root` into PostgreSQL, read back and compared; afterwards
 * the files backend refuses to open. A repository migrated before is not copied again: its marker is returned instead,
 * and `spec` (which resolves the target, and may throw when none is configured) is not asked. The PostgreSQL client
 * loads only here and in a project on the postgres backend.
 */
export async function migrateToPostgres(
  root: string,
  spec: () => Extract<BackendSpec, { kind: 'postgres' }>,
  onStart?: (target: string) => void,
): Promise<{ migrated: MigrationReport } | { already: AlreadyMigrated }> {
  const marker = await readMigratedMarker(root);
  if (marker) return { already: { target: marker.target, project: marker.project, at: marker.at } };
  const postgres = spec();
  const { PostgresBackend } = await import('../backend/postgres/postgresBackend');
  const { migrateFilesToPostgres } = await import('../backend/postgres/migrateFilesToPostgres');
  const target = await PostgresBackend.open(postgres);
  try {
    onStart?.(target.description);
    return { migrated: await migrateFilesToPostgres(root, target) };
  } finally {
    await target.close();
  }
}

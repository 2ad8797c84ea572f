import type { Backend } from './backend';
import type { BackendSpec } from './backendSpec';
import { FilesBackend } from './filesBackend';

/**
 * Opens the backend `spec` names for the repository at `root`; an unreachable server or a wrong URL throws a clear
 * error.
 */
export async function openBackend(root: string, spec: BackendSpec = { kind: 'files' }): Promise<Backend> {
  if (spec.kind === 'files') return FilesBackend.open(root);
  const { PostgresBackend } = await import('./postgres/postgresBackend');
  return PostgresBackend.open(spec);
}

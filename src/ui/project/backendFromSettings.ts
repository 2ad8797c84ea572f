import type * as vscode from 'vscode';
import { resolveBackendSpec, type BackendSpec } from '../../core/project/backendChoice';
import { SwitchyardError, errorMessage } from '../../core/errors';
import { backendSettings } from '../config/switchyardConfig';
import type { PostgresConnectionSecret } from '../secrets/postgresConnectionSecret';

/** Where the user is told to put the connection string when the postgres backend has none. */
export const POSTGRES_URL_HINT =
  'run "Switchyard: Set PostgreSQL Connection String" or set SWITCHYARD_DATABASE_URL for VS Code';

/**
 * The backend of the folder's project, from `switchyard.backend` and
 * `switchyard.project` (else SWITCHYARD_PROJECT, else the repository folder's
 * name); the connection string from SecretStorage first, then
 * SWITCHYARD_DATABASE_URL of this process, never from settings. Anything
 * missing or malformed is the core's clear `backend-config` error: there is
 * no silent fall back to files. `Project.open` calls it with the repository
 * root, so the default name matches the CLI's.
 */
export function backendFromSettings(
  folder: vscode.WorkspaceFolder,
  secret: PostgresConnectionSecret | undefined,
  env: NodeJS.ProcessEnv = process.env,
): (root: string) => Promise<BackendSpec> {
  return async (root) => {
    const settings = backendSettings(folder);
    if (settings.kind === 'files') return { kind: 'files' };
    return resolveBackendSpec(root, {
      kind: settings.kind,
      url: (await storedUrl(secret)) ?? env.SWITCHYARD_DATABASE_URL,
      project: settings.project || env.SWITCHYARD_PROJECT,
      urlHint: POSTGRES_URL_HINT,
    });
  };
}

async function storedUrl(secret: PostgresConnectionSecret | undefined): Promise<string | undefined> {
  try {
    return await secret?.get();
  } catch (error) {
    throw new SwitchyardError(
      'backend-config',
      `could not read the PostgreSQL connection string from VS Code's secret storage: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

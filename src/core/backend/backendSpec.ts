import { basename } from 'node:path';
import { z } from 'zod';
import { SwitchyardError } from '../errors';

/** Which backend a project opens, parsed from settings and the environment where they enter. */
export type BackendSpec =
  | { kind: 'files' }
  | {
      kind: 'postgres';
      /** The connection string (a secret: it may hold a password; it never reaches logs or messages). */
      url: string;
      /**
       * The project's name in the shared database; every window and worker on the same repository uses the same one.
       */
      project: string;
    };

export const BackendKindSetting = z.enum(['files', 'postgres']);
export const ProjectName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/,
    'letters, digits, ".", "_" or "-", at most 100, starting with a letter or digit',
  );

export interface BackendInputs {
  /** `switchyard.backend`, `--backend` or SWITCHYARD_BACKEND; default files. */
  kind?: string | undefined;
  /** From SecretStorage or SWITCHYARD_DATABASE_URL, never from a settings file. */
  url?: string | undefined;
  /** `switchyard.project`, `--project-name` or SWITCHYARD_PROJECT; default the repository folder's name. */
  project?: string | undefined;
  /** Where to tell the user to put the connection string, for the error when there is none. */
  urlHint: string;
}

/**
 * Turns settings into a backend spec; a missing or malformed piece is a clear error, never a silent fall back to files.
 */
export function resolveBackendSpec(root: string, inputs: BackendInputs): BackendSpec {
  const kind = BackendKindSetting.safeParse(inputs.kind?.trim() || 'files');
  if (!kind.success)
    throw new SwitchyardError('backend-config', `unknown backend "${inputs.kind}": use "files" or "postgres"`);
  if (kind.data === 'files') return { kind: 'files' };
  const url = inputs.url?.trim();
  if (!url)
    throw new SwitchyardError(
      'backend-config',
      `the backend is "postgres" but no connection string is set: ${inputs.urlHint}`,
    );
  const name = inputs.project?.trim() || basename(root);
  const project = ProjectName.safeParse(name);
  if (!project.success)
    throw new SwitchyardError(
      'backend-config',
      `project name "${name}" for the shared database: ${project.error.issues[0]?.message}; set it with SWITCHYARD_PROJECT (CLI) or switchyard.project (VS Code)`,
    );
  return { kind: 'postgres', url, project: project.data };
}

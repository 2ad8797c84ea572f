import { Project } from '../core/project';
import { resolveBackendSpec, type BackendSpec } from '../core/backend/backendSpec';
import { registryWithBuiltins } from '../lanes/builtinLanes';
import { loadLaneModules } from '../lanes/loadLaneModules';
import { isTrusted } from './trustedWorkspaces';

/** What every CLI command gets: parsed flags, positionals and output streams. */
export interface CliContext {
  readonly positionals: string[];
  readonly flags: Record<string, string | boolean | string[] | undefined>;
  readonly cwd: string;
  /** The environment (default process.env): the backend and its connection string come from it. */
  readonly env?: NodeJS.ProcessEnv;
  /** Called when the command ends (closes the backend's connections). */
  readonly onExit?: (fn: () => Promise<void>) => void;
  out(text: string): void;
  err(text: string): void;
}

/** Wrong use of the CLI: exit 2, the message without a stack trace (and the usage text unless `showUsage` is false). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(message: string, readonly showUsage = true) {
    super(message);
  }
}

/** Where the CLI is told to put the connection string when the postgres backend has none. */
export const CLI_URL_HINT = 'set the environment variable SWITCHYARD_DATABASE_URL (postgres://user:password@host:5432/database); it is never read from a settings file';

/** The backend from `--backend` / SWITCHYARD_BACKEND, the URL from SWITCHYARD_DATABASE_URL, the name from `--project-name` / SWITCHYARD_PROJECT. */
export function cliBackendSpec(ctx: CliContext, root: string): BackendSpec {
  const env = ctx.env ?? process.env;
  return resolveBackendSpec(root, {
    kind: flagString(ctx, 'backend') ?? env.SWITCHYARD_BACKEND,
    url: env.SWITCHYARD_DATABASE_URL,
    project: flagString(ctx, 'project-name') ?? env.SWITCHYARD_PROJECT,
    urlHint: CLI_URL_HINT,
  });
}

export function repoFlag(ctx: CliContext): string {
  return typeof ctx.flags.repo === 'string' ? ctx.flags.repo : typeof ctx.flags.project === 'string' ? ctx.flags.project : ctx.cwd;
}

/** Opens the project of `--repo` (or the current folder) on its backend, with the built-in lanes and the project's lane modules. */
export async function openProject(ctx: CliContext, options: { ownerName?: string } = {}): Promise<Project> {
  const registry = registryWithBuiltins();
  const project = await Project.open(repoFlag(ctx), { registry, backend: (root) => cliBackendSpec(ctx, root), ...options });
  ctx.onExit?.(() => project.close());
  const { laneModules } = (await project.state()).settings;
  if (laneModules.length) {
    if (await isTrusted(project.root)) await loadLaneModules(registry, project.root, laneModules, (m) => ctx.err(`warning: ${m}`));
    else ctx.err(`warning: not loading lane modules ${laneModules.join(', ')}: ${project.root} is not a trusted workspace (its settings would run code). Run \`switchyard trust\` in it to allow.`);
  }
  return project;
}

export function flagString(ctx: CliContext, name: string): string | undefined {
  const value = ctx.flags[name];
  if (Array.isArray(value)) return value[value.length - 1];
  return typeof value === 'string' ? value : undefined;
}

export function flagList(ctx: CliContext, name: string): string[] {
  const value = ctx.flags[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

export function requirePositional(ctx: CliContext, index: number, what: string): string {
  const value = ctx.positionals[index];
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

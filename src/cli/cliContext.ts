import { resolve } from 'node:path';
import { Project } from '../core/project/project';
import { resolveBackendSpec, type BackendSpec } from '../core/project/backendChoice';
import { registryWithBuiltins } from '../lanes/builtinLanes';
import { loadLaneModules } from '../lanes/loadLaneModules';
import { isTrusted } from './trustedWorkspaces';
import { UsageError } from './usageError';
import type { FlagValue } from './optionSpec';

export { UsageError };

/** The CLI's standard input: a stream of chunks, and whether it is a terminal. */
export type CliStdin = AsyncIterable<Buffer | string> & { readonly isTTY?: boolean };

/** All of the standard input as text (empty when there is none; with `skipTerminal`, also when it is a terminal). */
export async function readStdin(ctx: CliContext, skipTerminal = false): Promise<string> {
  if (!ctx.stdin || (skipTerminal && ctx.stdin.isTTY)) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** What every CLI command gets: parsed flags, positionals and output streams. */
export interface CliContext {
  readonly positionals: string[];
  /** Checked and converted by the command's table entry: numbers, durations (ms) and lists arrive as such. */
  readonly flags: Record<string, FlagValue>;
  readonly cwd: string;
  /** The environment: the backend, its connection string and the lanes' environment come from it. */
  readonly env: NodeJS.ProcessEnv;
  readonly stdin?: CliStdin;
  /** Called when the command ends (closes the backend's connections). */
  readonly onExit?: (fn: () => Promise<void>) => void;
  out(text: string): void;
  err(text: string): void;
}

/** Where the CLI is told to put the connection string when the postgres backend has none. */
export const CLI_URL_HINT =
  'set the environment variable SWITCHYARD_DATABASE_URL (postgres://user:password@host:5432/database); it is never read from a settings file';

/**
 * The backend from `--backend` / SWITCHYARD_BACKEND, the URL from SWITCHYARD_DATABASE_URL, the name from
 * `--project-name` / SWITCHYARD_PROJECT.
 */
export function cliBackendSpec(ctx: CliContext, root: string): BackendSpec {
  return resolveBackendSpec(root, {
    kind: flagString(ctx, 'backend') ?? ctx.env.SWITCHYARD_BACKEND,
    url: ctx.env.SWITCHYARD_DATABASE_URL,
    project: flagString(ctx, 'project-name') ?? ctx.env.SWITCHYARD_PROJECT,
    urlHint: CLI_URL_HINT,
  });
}

/** `--repo` (relative to the working folder), else the working folder. */
export function repoFlag(ctx: CliContext): string {
  return resolve(ctx.cwd, flagString(ctx, 'repo') ?? '.');
}

/**
 * Opens the project of `--repo` (or the current folder) on its backend, with the built-in lanes and the project's lane
 * modules.
 */
export async function openProject(ctx: CliContext, options: { ownerName?: string } = {}): Promise<Project> {
  const registry = registryWithBuiltins();
  const trust = trustReader(ctx.env);
  const project = await Project.open(repoFlag(ctx), {
    registry,
    parentEnv: ctx.env,
    backend: (root) => cliBackendSpec(ctx, root),
    trusted: () => trust.get(project.root),
    ...options,
  });
  ctx.onExit?.(() => project.close());
  const notice = await project.settings.configNotice();
  if (notice) ctx.err(`warning: ${notice}`);
  const { laneModules } = await project.settings.read();
  if (laneModules.length) {
    if (await isTrusted(project.root, ctx.env))
      await loadLaneModules(registry, project.root, laneModules, (m) => ctx.err(`warning: ${m}`));
    else
      ctx.err(
        `warning: not loading lane modules ${laneModules.join(', ')}: ${project.root} is not a trusted workspace (its settings would run code). Run \`switchyard trust\` in it to allow.`,
      );
  }
  return project;
}

/** `isTrusted`, read again at most every 2 s: the engine asks at every state read; `switchyard trust` applies soon. */
function trustReader(env: NodeJS.ProcessEnv): { get(root: string): Promise<boolean> } {
  let cached: { at: number; value: Promise<boolean> } | undefined;
  return {
    get(root) {
      if (!cached || Date.now() - cached.at > 2_000)
        cached = { at: Date.now(), value: isTrusted(root, env).catch(() => false) };
      return cached.value;
    },
  };
}

export function flagString(ctx: CliContext, name: string): string | undefined {
  const value = ctx.flags[name];
  if (Array.isArray(value)) return value.length ? String(value[value.length - 1]) : undefined;
  return typeof value === 'string' ? value : undefined;
}

export function flagList(ctx: CliContext, name: string): string[] {
  const value = ctx.flags[name];
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? [value] : [];
}

/** A number option (its table entry checked it); `undefined` when not given. */
export function flagNumber(ctx: CliContext, name: string): number | undefined {
  const value = ctx.flags[name];
  return typeof value === 'number' ? value : undefined;
}

/** A list-of-numbers option (`--concurrency 1,2,4`). */
export function flagNumbers(ctx: CliContext, name: string): number[] | undefined {
  const value = ctx.flags[name];
  return Array.isArray(value) && value.every((v) => typeof v === 'number') ? (value as number[]) : undefined;
}

export function requirePositional(ctx: CliContext, index: number, what: string): string {
  const value = ctx.positionals[index];
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

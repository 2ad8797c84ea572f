import { Project } from '../core/project';
import { registryWithBuiltins } from '../lanes/builtinLanes';
import { loadLaneModules } from '../lanes/loadLaneModules';
import { isTrusted } from './trustedWorkspaces';

/** What every CLI command gets: parsed flags, positionals and output streams. */
export interface CliContext {
  readonly positionals: string[];
  readonly flags: Record<string, string | boolean | string[] | undefined>;
  readonly cwd: string;
  out(text: string): void;
  err(text: string): void;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Opens the project of `--repo` (or the current folder) with the built-in lanes and the project's lane modules. */
export async function openProject(ctx: CliContext): Promise<Project> {
  const repo = typeof ctx.flags.repo === 'string' ? ctx.flags.repo : typeof ctx.flags.project === 'string' ? ctx.flags.project : ctx.cwd;
  const registry = registryWithBuiltins();
  const project = await Project.open(repo, { registry });
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

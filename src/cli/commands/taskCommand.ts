import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SwitchyardError } from '../../core/errors';
import { decodeUtf8 } from '../../core/model/decodeUtf8';
import { TaskFile } from '../../core/model/task';
import { describeZodError } from '../../core/model/zodIssues';
import {
  type CliContext,
  UsageError,
  flagList,
  flagNumber,
  flagString,
  openProject,
  requirePositional,
} from '../cliContext';

/** `switchyard task add …` and `switchyard task lane <task> <lane>` */
export async function taskCommand(ctx: CliContext): Promise<number> {
  const sub = requirePositional(ctx, 0, 'subcommand: task add | task lane');
  if (sub === 'add') return addTasks(ctx);
  if (sub === 'lane') {
    const project = await openProject(ctx);
    const task = await project.tasks.setLane(
      requirePositional(ctx, 1, 'task id'),
      requirePositional(ctx, 2, 'lane id'),
    );
    ctx.out(`${task.id} now runs on lane ${task.spec.lane}`);
    return 0;
  }
  throw new UsageError(`unknown subcommand "task ${sub}"`);
}

async function addTasks(ctx: CliContext): Promise<number> {
  const fromFile = flagString(ctx, 'from');
  const specs: unknown[] = [];
  let where = 'task';
  if (fromFile) {
    const path = resolve(ctx.cwd, fromFile);
    where = path;
    specs.push(...(await readTaskFile(path)));
  } else {
    const title = flagString(ctx, 'title');
    if (!title) throw new UsageError('task add needs --title (or --from <tasks.json>)');
    const specFile = flagString(ctx, 'spec-file');
    const spec = specFile ? await readTextFile(resolve(ctx.cwd, specFile)) : (flagString(ctx, 'spec') ?? '');
    const priority = flagNumber(ctx, 'priority');
    specs.push({
      title,
      spec,
      files: flagList(ctx, 'file'),
      dependsOn: flagList(ctx, 'depends-on'),
      ...(flagString(ctx, 'lane') ? { lane: flagString(ctx, 'lane') } : {}),
      ...(flagString(ctx, 'accept') ? { acceptance: flagString(ctx, 'accept') } : {}),
      ...(priority !== undefined ? { priority } : {}),
      ...urgentFlag(ctx),
      ...(ctx.flags.draft ? { draft: true } : {}),
    });
  }
  const project = await openProject(ctx);
  const tasks = await project.tasks.addMany(specs, where);
  if (ctx.flags.json) ctx.out(JSON.stringify(tasks, null, 2));
  else for (const t of tasks) ctx.out(`added ${t.id} ${t.spec.title} (${t.state})`);
  return 0;
}

/** `--urgent-owner`, `--urgent-reason`, `--urgent-until`: all three or none (the task schema names what is missing). */
function urgentFlag(ctx: CliContext): { urgent?: Record<string, string | undefined> } {
  const owner = flagString(ctx, 'urgent-owner');
  const reason = flagString(ctx, 'urgent-reason');
  const expiresAt = flagString(ctx, 'urgent-until');
  if (owner === undefined && reason === undefined && expiresAt === undefined) return {};
  return { urgent: { owner, reason, expiresAt } };
}

/** A file's text, refused (naming the byte offset) when it is not UTF-8. */
async function readTextFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new SwitchyardError('invalid-input', `cannot read ${path}: ${(error as Error).message}`);
  }
  return decodeUtf8(bytes, path);
}

async function readTaskFile(path: string): Promise<unknown[]> {
  const text = await readTextFile(path);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SwitchyardError('invalid-input', `${path}: ${(error as Error).message}`);
  }
  const parsed = TaskFile.safeParse(json);
  if (!parsed.success) {
    // Say which task and field is wrong, by checking each entry on its own.
    const list = Array.isArray(json) ? json : (json as { tasks?: unknown })?.tasks;
    if (Array.isArray(list)) return list;
    if (json && typeof json === 'object' && !('tasks' in json)) return [json];
    throw new SwitchyardError('invalid-input', `${path}: ${describeZodError(parsed.error)}`);
  }
  const data = parsed.data;
  return Array.isArray(data) ? data : 'tasks' in data ? data.tasks : [data];
}

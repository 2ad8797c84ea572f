import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { SwitchyardError } from '../errors';
import type { QueueOptions, QueueSummary } from '../engine/drain/queueRunner';
import { TaskSpec, type Task } from '../model/task';
import type { Stage } from '../model/taskStates';
import { describeZodError } from '../model/zodIssues';
import type { ProjectSettings, ProjectState } from '../store/projectState';
import { git } from '../git/gitExec';

/** The default agent of an experiment: each task writes its own file, so tasks never conflict. */
export const DEFAULT_EXPERIMENT_COMMAND = 'echo "$SWITCHYARD_TASK_TITLE" > "task-$SWITCHYARD_TASK_ID.txt"';

/**
 * A DAG file: task specs (with `key`s for `dependsOn`), and optionally the command lane's command and project settings.
 */
export const DagFile = z.union([
  z.array(TaskSpec),
  z
    .object({
      command: z.string().min(1).optional(),
      settings: z.record(z.string(), z.unknown()).optional(),
      tasks: z.array(TaskSpec).min(1, 'a DAG file needs at least one task'),
    })
    .strict(),
]);
export type DagFile = z.infer<typeof DagFile>;

export interface ExperimentRow {
  concurrency: number;
  wallMs: number;
  batches: number;
  tasks: number;
  done: number;
  failed: number;
  attempts: number;
  retries: number;
  peak: Record<Stage, number>;
}

export async function readDagFile(path: string): Promise<DagFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new SwitchyardError('invalid-input', `${path}: ${(error as Error).message}`);
  }
  const parsed = DagFile.safeParse(json);
  if (!parsed.success) throw new SwitchyardError('invalid-input', `${path}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/**
 * What an experiment needs of a project (the façade's `Project` has it); the caller opens it, with the command lane
 * registered and no pre-push hook.
 */
export interface ExperimentProject {
  readonly settings: { update(change: (settings: ProjectSettings) => void): Promise<ProjectSettings> };
  readonly tasks: { addMany(specs: readonly unknown[], where?: string): Promise<Task[]> };
  runQueue(options?: QueueOptions): Promise<QueueSummary>;
  state(): Promise<ProjectState>;
}

/**
 * Runs the same DAG once per concurrency setting (the RUNNING limit), each
 * time in a fresh temporary git repository with the command lane, and
 * measures the drain: wall time, batches (claims that started runs), tasks,
 * attempts and retries, and the most runs each stage held at once.
 */
export async function runExperiment(
  dag: DagFile,
  settings: readonly number[],
  openProject: (dir: string) => Promise<ExperimentProject>,
  onRow?: (row: ExperimentRow) => void,
): Promise<ExperimentRow[]> {
  const file = Array.isArray(dag) ? { tasks: dag } : dag;
  const rows: ExperimentRow[] = [];
  for (const concurrency of settings) {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-experiment-'));
    try {
      await git(dir, ['init', '-q', '-b', 'main']);
      await writeFile(join(dir, 'README.md'), '# experiment\n');
      await git(dir, ['add', '.']);
      await git(dir, [
        '-c',
        'user.name=Switchyard',
        '-c',
        'user.email=switchyard@localhost',
        'commit',
        '-q',
        '-m',
        'initial',
      ]);
      const project = await openProject(dir);
      await project.settings.update((s) => {
        Object.assign(s, file.settings ?? {});
        s.laneSettings.command = {
          ...(s.laneSettings.command ?? {}),
          command: file.command ?? DEFAULT_EXPERIMENT_COMMAND,
        };
      });
      await project.tasks.addMany(file.tasks, 'the DAG file');
      const summary = await project.runQueue({ concurrency });
      const state = await project.state();
      const row: ExperimentRow = {
        concurrency,
        wallMs: summary.stats.wallMs,
        batches: summary.stats.batches,
        tasks: state.tasks.length,
        done: state.tasks.filter((t) => t.state === 'DONE').length,
        failed: state.tasks.filter((t) => t.state === 'FAILED').length,
        attempts: state.runs.length,
        retries: state.runs.filter((r) => r.attempt > 1).length,
        peak: summary.stats.peak,
      };
      rows.push(row);
      onRow?.(row);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

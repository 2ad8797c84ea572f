import * as vscode from 'vscode';
import type { Disposable } from '../../core/model/disposable';
import type { Project } from '../../core/project/project';
import { runEventText } from '../../core/text/runEventText';
import type { ProjectHost } from '../project/projectHost';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import type { ArchivedTasks } from './archivedTasks';
import { ChannelPool, runSeparator, taskChannelName, taskIdOfRun } from './channelPool';

/** Output channels kept at once (one per task); the least recently used is closed when another task needs one. */
export const MAX_TASK_CHANNELS = 20;
/** Lines of a channel kept in memory for `show()`'s text (the channel itself keeps all). */
const KEPT_LINES = 5_000;

/** How a run got into its task's channel. */
type RunPart = 'live' | 'recorded';

class TaskChannel {
  readonly lines: string[] = [];
  /** The runs written here, and how. */
  readonly runs = new Map<string, RunPart>();
  /** The run whose lines came last (a different run's line starts with a separator). */
  current: string | undefined;

  constructor(readonly channel: vscode.OutputChannel) {}

  dispose(): void {
    this.channel.dispose();
  }
}

/**
 * One output channel per task, "Switchyard: t1 · Fix the parser": the lane's normalized events (text, logs, tool calls
 * and their results, usage) and the host's decisions as they happen, for every run this window's project runs. A new
 * attempt appends to its task's channel after a separator line naming the run. `show(runId)` opens the channel of a
 * run's task; a run that ran elsewhere, or before the window opened, is added from its recorded log. At most
 * MAX_TASK_CHANNELS stay open (least recently used closed first); Clear Finished closes those of the archived tasks.
 */
export class RunOutputChannels implements vscode.Disposable {
  private readonly pool = new ChannelPool<TaskChannel>(MAX_TASK_CHANNELS);
  private project: Project | undefined;
  private subscription: Disposable | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly host: ProjectHost,
    private readonly snapshot: ProjectSnapshot,
    private readonly archived: ArchivedTasks,
  ) {
    this.subscriptions = [
      // The host fires as soon as it opened a project, before any run of it starts.
      host.onDidChange(() => {
        host.get().then(
          (p) => this.attach(p),
          () => undefined,
        );
      }),
      archived.onDidChange(() => this.closeArchived()),
    ];
  }

  /** Streams the runs of `project` (idempotent; a newly opened project replaces the old one). */
  attach(project: Project): void {
    if (this.project === project) return;
    this.subscription?.dispose();
    this.project = project;
    this.subscription = project.onRunEvent((runId, type, body) => this.append(runId, type, body));
  }

  /** Opens the channel of a run's task (without taking the focus); resolves to its text. */
  async show(runId: string): Promise<string> {
    const taskId = taskIdOfRun(runId);
    const open = this.pool.get(taskId);
    if (open?.runs.has(runId)) {
      open.channel.show(true);
      return open.lines.join('\n');
    }
    const project = await this.host.get();
    const lines = await project.runs.log(runId);
    const task = this.taskChannel(taskId);
    if (!task.runs.has(runId)) {
      // (A live line may have arrived while the log was read: the run is in the channel then.)
      this.startRun(task, runId, 'recorded');
      for (const { ts, type, ...body } of lines) {
        for (const line of runEventText(type, body)) this.write(task, `${time(ts)} ${line}`);
      }
      if (!lines.length) this.write(task, `run ${runId} has no recorded output`);
    }
    task.channel.show(true);
    return task.lines.join('\n');
  }

  private append(runId: string, type: string, body: Record<string, unknown>): void {
    const stamp = time(new Date().toISOString());
    const task = this.taskChannel(taskIdOfRun(runId));
    if (task.current !== runId || !task.runs.has(runId)) this.startRun(task, runId, 'live');
    for (const line of runEventText(type, body)) this.write(task, `${stamp} ${line}`);
  }

  /** The separator line that opens a run's part (and marks it the channel's current run). */
  private startRun(task: TaskChannel, runId: string, part: RunPart): void {
    const run = this.snapshot.state?.runs.find((r) => r.id === runId);
    const details = run ? [`attempt ${run.attempt}`, `lane ${run.lane}`] : [];
    if (task.lines.length) this.write(task, '');
    this.write(task, runSeparator(runId, task.runs.has(runId) ? [...details, 'continued'] : details));
    if (task.runs.get(runId) !== 'live') task.runs.set(runId, part);
    task.current = runId;
  }

  private write(task: TaskChannel, line: string): void {
    task.channel.appendLine(line);
    task.lines.push(line);
    if (task.lines.length > KEPT_LINES) task.lines.splice(0, task.lines.length - KEPT_LINES);
  }

  private taskChannel(taskId: string): TaskChannel {
    return this.pool.obtain(taskId, () => {
      const title = this.snapshot.state?.tasks.find((t) => t.id === taskId)?.spec.title;
      return new TaskChannel(vscode.window.createOutputChannel(taskChannelName(taskId, title)));
    });
  }

  /** Closes the channels of the tasks Clear Finished archived (and that the tree does not show now). */
  private closeArchived(): void {
    const tasks = new Map((this.snapshot.state?.tasks ?? []).map((t) => [t.id, t]));
    this.pool.retain((taskId) => {
      const task = tasks.get(taskId);
      return !task || !this.archived.hides(task);
    });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.subscription?.dispose();
    this.pool.dispose();
  }
}

/** `12:03:04` of an ISO time. */
function time(iso: string): string {
  return iso.slice(11, 19);
}

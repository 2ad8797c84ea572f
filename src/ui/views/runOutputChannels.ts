import * as vscode from 'vscode';
import type { Disposable } from '../../core/model/disposable';
import type { Project } from '../../core/project';
import { runEventText } from '../../core/store/runEventText';
import type { ProjectHost } from '../project/projectHost';

/** Output channels kept at once; the oldest is closed when another run starts. */
const MAX_CHANNELS = 8;
/** Lines of a channel kept in memory for `text()` (the channel itself keeps all). */
const KEPT_LINES = 5_000;

interface RunChannel {
  channel: vscode.OutputChannel;
  /** Fed by the run's events as they happen (rather than read from its log afterwards). */
  live: boolean;
  lines: string[];
}

/**
 * One output channel per run, "Switchyard: t1.2": the lane's normalized events (text, logs, tool calls and their
 * results, usage) and the host's decisions as they happen, for every run this window's project runs. `show(runId)`
 * opens a run's channel; a run that ran elsewhere, or before the window opened, is filled from its recorded log.
 */
export class RunOutputChannels implements vscode.Disposable {
  private readonly channels = new Map<string, RunChannel>();
  private project: Project | undefined;
  private subscription: Disposable | undefined;
  private readonly hostChange: vscode.Disposable;

  constructor(private readonly host: ProjectHost) {
    // The host fires as soon as it opened a project, before any run of it starts.
    this.hostChange = host.onDidChange(() => {
      host.get().then(
        (p) => this.attach(p),
        () => undefined,
      );
    });
  }

  /** Streams the runs of `project` (idempotent; a newly opened project replaces the old one). */
  attach(project: Project): void {
    if (this.project === project) return;
    this.subscription?.dispose();
    this.project = project;
    this.subscription = project.onRunEvent((runId, type, body) => this.append(runId, type, body));
  }

  /** Opens the channel of a run, named "Switchyard: <run>" (without taking the focus); resolves to its text. */
  async show(runId: string): Promise<string> {
    const open = this.channels.get(runId);
    if (open?.live) {
      open.channel.show(true);
      return open.lines.join('\n');
    }
    const project = await this.host.get();
    const lines = await project.runLog(runId);
    const run = this.channel(runId, false);
    run.channel.clear();
    run.lines = [];
    for (const { ts, type, ...body } of lines) {
      for (const line of runEventText(type, body)) this.write(run, `${time(ts)} ${line}`);
    }
    if (!lines.length) this.write(run, `run ${runId} has no recorded output`);
    run.channel.show(true);
    return run.lines.join('\n');
  }

  private append(runId: string, type: string, body: Record<string, unknown>): void {
    const stamp = time(new Date().toISOString());
    const run = this.channel(runId, true);
    for (const line of runEventText(type, body)) this.write(run, `${stamp} ${line}`);
  }

  private write(run: RunChannel, line: string): void {
    run.channel.appendLine(line);
    run.lines.push(line);
    if (run.lines.length > KEPT_LINES) run.lines.splice(0, run.lines.length - KEPT_LINES);
  }

  private channel(runId: string, live: boolean): RunChannel {
    const open = this.channels.get(runId);
    if (open) {
      open.live ||= live;
      return open;
    }
    const channel = vscode.window.createOutputChannel(`Switchyard: ${runId}`);
    const created: RunChannel = { channel, live, lines: [] };
    this.channels.set(runId, created);
    for (const [id, old] of this.channels) {
      if (this.channels.size <= MAX_CHANNELS) break;
      old.channel.dispose();
      this.channels.delete(id);
    }
    return created;
  }

  dispose(): void {
    this.hostChange.dispose();
    this.subscription?.dispose();
    for (const { channel } of this.channels.values()) channel.dispose();
    this.channels.clear();
  }
}

/** `12:03:04` of an ISO time. */
function time(iso: string): string {
  return iso.slice(11, 19);
}

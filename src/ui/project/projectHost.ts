import * as vscode from 'vscode';
import type { LaneRegistry } from '../../core/lanes/laneRegistry';
import { Project } from '../../core/project';
import type { SecretSource } from '../../core/secrets/secretSource';
import { affectsProjectOptions, laneSettingsFromConfig, verifyTimeoutMs } from '../config/switchyardConfig';
import { watchStateFile } from './watchStateFile';
import { resumeInterruptedRuns } from '../progress/resumeInterruptedRuns';

/**
 * Opens the `Project` of the first workspace folder lazily, on first use, and
 * reports every change to it: the project's own events and writes by other
 * processes (via the state file watcher). A new folder or a changed project
 * option drops the open project; the next use opens it again.
 */
export class ProjectHost implements vscode.Disposable {
  private opening: Promise<Project> | undefined;
  private generation = 0;
  private projectSubscriptions: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];

  /** Fires when tasks, runs or settings may have changed (or the project was reset). */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly registry: LaneRegistry,
    /** Asked first for lane secrets (VS Code's SecretStorage); then the environment and secret commands. */
    private readonly secrets?: SecretSource,
  ) {
    this.subscriptions = [
      this.changed,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsProjectOptions(e)) this.reset();
      }),
    ];
  }

  /** The project, opened on first call. Not a git repository (or no folder) is the core's clear error. */
  get(): Promise<Project> {
    if (!this.opening) {
      const opening = this.open(this.generation);
      this.opening = opening;
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.opening;
  }

  /** Forgets the open project; the next `get()` opens it again with the current settings. */
  reset(): void {
    this.generation += 1;
    this.opening = undefined;
    this.disposeProjectSubscriptions();
    this.changed.fire();
  }

  private async open(generation: number): Promise<Project> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('Switchyard needs an open folder: open a folder inside a git repository first.');
    const project = await Project.open(folder.uri.fsPath, {
      registry: this.registry,
      secrets: this.secrets,
      laneSettingsOverride: (laneId) => laneSettingsFromConfig(laneId, folder),
      verifyTimeoutMs: verifyTimeoutMs(folder),
    });
    if (generation !== this.generation) return project;
    const fire = (): void => this.changed.fire();
    const own = project.onDidChange(fire);
    this.projectSubscriptions.push(new vscode.Disposable(() => own.dispose()), watchStateFile(project.root, fire));
    fire();
    void resumeInterruptedRuns(project);
    return project;
  }

  private disposeProjectSubscriptions(): void {
    for (const s of this.projectSubscriptions) s.dispose();
    this.projectSubscriptions = [];
  }

  dispose(): void {
    this.disposeProjectSubscriptions();
    for (const s of this.subscriptions) s.dispose();
  }
}

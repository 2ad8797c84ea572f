import { editorProjectSettings } from '../config/editorProjectSettings';
import * as vscode from 'vscode';
import type { LaneRegistry } from '../../core/project/projectOptions';
import { Project } from '../../core/project/project';
import { affectsProjectOptions } from '../config/switchyardConfig';
import type { SecretStorageSource } from '../secrets/secretStorageSource';
import { backendFromSettings } from './backendFromSettings';
import { isBackendError, showBackendError } from './showBackendError';
import { watchExternalChanges } from './watchExternalChanges';
import { resumeInterruptedRuns } from '../progress/resumeInterruptedRuns';

/** The project this host opened, and the background resume that must end before it is closed. */
interface OpenProject {
  project: Project;
  resumed: Promise<void>;
}

/**
 * Opens the `Project` of the first workspace folder lazily, on first use, on
 * the backend the settings name (`switchyard.backend`), and reports every
 * change to it: the project's own events and writes by other processes (the
 * backend's change feed: the state file for files, LISTEN/NOTIFY for
 * postgres). A new folder, a
 * changed project option or a new connection string drops the open project
 * (closing its connections); the next use opens it again. A backend that
 * cannot be opened is an error notification with ways to fix it, once per
 * reset (not on every refresh), and never a fall back to files.
 */
export class ProjectHost implements vscode.Disposable {
  private opening: Promise<Project> | undefined;
  private current: OpenProject | undefined;
  private generation = 0;
  /** The generation whose backend error was last shown, so a refresh does not show it again. */
  private reportedGeneration = -1;
  private disposed = false;
  private projectSubscriptions: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];

  /** Fires when tasks, runs or settings may have changed (or the project was reset). */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly registry: LaneRegistry,
    /**
     * Asked first for lane secrets (VS Code's SecretStorage); then the environment and secret commands. Also holds the
     * PostgreSQL connection string.
     */
    private readonly secrets?: SecretStorageSource,
    /** Resolves once the lanes of other extensions are registered (they may own the runs a resume continues). */
    private readonly lanesReady: () => Promise<void> = () => Promise.resolve(),
    /** What the pre-push hook in a run's worktree runs (extensionHookCommand); undefined: the core's default. */
    private readonly hookCommand?: string,
  ) {
    this.subscriptions = [
      this.changed,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsProjectOptions(e)) this.reset();
      }),
      ...(secrets ? [secrets.postgres.onDidChange(() => this.reset())] : []),
    ];
  }

  /**
   * The project, opened on first call. Not a git repository (or no folder) or a backend that cannot be opened is the
   * core's clear error.
   */
  get(): Promise<Project> {
    if (this.disposed) return Promise.reject(new Error('Switchyard is shutting down'));
    if (!this.opening) {
      const opening = this.open(this.generation);
      this.opening = opening;
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.opening;
  }

  /** Forgets (and closes) the open project; the next `get()` opens it again with the current settings. */
  reset(): void {
    this.generation += 1;
    this.opening = undefined;
    this.disposeProjectSubscriptions();
    this.retire();
    this.changed.fire();
  }

  private async open(generation: number): Promise<Project> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('Switchyard needs an open folder: open a folder inside a git repository first.');
    let project: Project;
    try {
      project = await Project.open(folder.uri.fsPath, {
        registry: this.registry,
        secrets: this.secrets,
        ...(this.secrets ? { githubTokens: this.secrets.github } : {}),
        editorSettings: () => editorProjectSettings(folder),
        backend: backendFromSettings(folder, this.secrets?.postgres),
        // Workspace trust: untrusted, the committed config may not make Switchyard run a command.
        trusted: () => vscode.workspace.isTrusted,
        ...(this.hookCommand !== undefined ? { hookCommand: this.hookCommand } : {}),
      });
    } catch (error) {
      this.report(error, generation);
      throw error;
    }
    if (generation !== this.generation) {
      // Reset while opening: this one was opened with old settings.
      void project.close().catch(() => undefined);
      return this.get();
    }
    const fire = (): void => this.changed.fire();
    const own = project.onDidChange(fire);
    const outside = watchExternalChanges(project, fire);
    this.projectSubscriptions.push(new vscode.Disposable(() => own.dispose()), outside);
    this.current = { project, resumed: this.lanesReady().then(() => resumeInterruptedRuns(project)) };
    fire();
    return project;
  }

  /** Shows a backend error once per generation (an explicit refresh in the same one shows its own message). */
  private report(error: unknown, generation: number): void {
    if (!isBackendError(error) || generation !== this.generation || this.reportedGeneration === generation) return;
    this.reportedGeneration = generation;
    void showBackendError(error);
  }

  /** Closes the open project (its database connections) once its background resume has ended. */
  private retire(): void {
    const open = this.current;
    this.current = undefined;
    if (open) void open.resumed.then(() => open.project.close()).catch(() => undefined);
  }

  private disposeProjectSubscriptions(): void {
    for (const s of this.projectSubscriptions) s.dispose();
    this.projectSubscriptions = [];
  }

  dispose(): void {
    this.disposed = true;
    this.generation += 1;
    this.opening = undefined;
    this.disposeProjectSubscriptions();
    this.retire();
    for (const s of this.subscriptions) s.dispose();
  }
}

import * as vscode from 'vscode';
import type { QueuePanelController } from './panel/queuePanelController';
import type { FinishedElsewhereAnnouncer } from './progress/announceFinishedElsewhere';
import type { SwitchyardExtension } from './switchyardApi';
import type { QueueStatusSource } from './views/queueStatusBar';
import type { TasksTreeProvider } from './views/tasksTreeProvider';

/** What the extension's entry hands its registrations to once the heavy bundle (src/extensionRuntime.ts) is loaded. */
export interface ExtensionRuntime extends vscode.Disposable {
  /**
   * Runs the command table's handler of `id` (failures shown as the table's commands always showed them).
   * `selection`: the Tasks view's selected rows (TasksView.selection), the row of a title button VS Code could not
   * name (treeRowArgs' withSelectedRow).
   */
  run(id: string, args: unknown[], selection: readonly unknown[]): Promise<unknown>;
  readonly tree: TasksTreeProvider;
  readonly status: QueueStatusSource;
  /** Tasks finished in another process: the Tasks view's badge. */
  readonly finishedElsewhere: FinishedElsewhereAnnouncer;
  readonly panels: QueuePanelController;
  /** A file at a commit (`switchyard-file:`), the sides of the run diff editor. */
  readonly files: vscode.TextDocumentContentProvider;
  readonly reports: vscode.TextDocumentContentProvider;
  readonly api: SwitchyardExtension;
}

/** Loads the runtime once, on the first `get()`, and tells whoever waits for it. */
export class RuntimeLoader implements vscode.Disposable {
  private runtime: ExtensionRuntime | undefined;
  private readonly loaded = new vscode.EventEmitter<ExtensionRuntime>();

  readonly onDidLoad = this.loaded.event;

  constructor(private readonly load: () => ExtensionRuntime) {}

  get(): ExtensionRuntime {
    if (!this.runtime) {
      this.runtime = this.load();
      this.loaded.fire(this.runtime);
    }
    return this.runtime;
  }

  /** Loads it after the current task (activation) ends, for a view that cannot render without it. */
  loadSoon(): void {
    setTimeout(() => {
      try {
        this.get();
      } catch (error) {
        // The next command that needs it fails with the same error, shown to the user.
        console.error('Switchyard could not load:', error);
      }
    }, 0);
  }

  dispose(): void {
    this.runtime?.dispose();
    this.loaded.dispose();
  }
}

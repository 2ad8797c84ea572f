import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { COMMANDS } from '../commandIds';
import { type QueueCounts, describeQueueCounts } from '../project/queueCounts';
import { plainText } from '../../core/text/plainText';

/** What the status bar shows: the counts, and why the project cannot be read (or where it lives). */
export interface QueueStatusSource {
  readonly onDidChange: vscode.Event<void>;
  counts(): QueueCounts;
  /** Why the project could not be opened or read, if it could not. */
  error(): unknown;
  /** Where the project's state lives (without secrets), once known. */
  backendDescription(): string | undefined;
}

/**
 * `$(rocket) Switchyard: N running, M queued` (`, K waiting for CI` when pull requests wait); a click opens the queue
 * panel; the tooltip names the backend (or why the project cannot be opened). It renders from one source at a time:
 * the state file's light reader at activation, the project snapshot once the rest of the extension has loaded (`use`).
 */
export class QueueStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('switchyard.queue', vscode.StatusBarAlignment.Left, 50);
  private subscription: vscode.Disposable | undefined;

  constructor(private source: QueueStatusSource) {
    this.item.name = 'Switchyard Queue';
    this.item.command = COMMANDS.openQueuePanel;
    this.use(source);
    this.item.show();
  }

  /** Renders from `source` from now on. */
  use(source: QueueStatusSource): void {
    this.subscription?.dispose();
    this.source = source;
    this.subscription = source.onDidChange(() => this.render());
    this.render();
  }

  private render(): void {
    const counts = this.source.counts();
    const error = this.source.error();
    // Counts of a project that could not be opened would read as an empty queue: say what is wrong instead.
    this.item.text =
      error === undefined
        ? `$(rocket) Switchyard: ${describeQueueCounts(counts)}`
        : `$(warning) Switchyard: ${errorCode(error) === 'not-a-git-repo' ? 'no git repository' : 'not open'}`;
    const backend = this.source.backendDescription();
    const where = backend ? `\nBackend: ${backend}` : '';
    this.item.tooltip =
      error === undefined ? `Open the Switchyard queue panel${where}` : plainText(`Switchyard: ${errorMessage(error)}`);
  }

  dispose(): void {
    this.subscription?.dispose();
    this.item.dispose();
  }
}

/**
 * The error's code, read from the value: this file is in the extension's small entry, whose copy of SwitchyardError
 * is not the runtime bundle's, so `instanceof` cannot tell.
 */
function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

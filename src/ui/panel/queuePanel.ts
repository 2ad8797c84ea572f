import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { type FeedInput, PanelFeed } from '../../core/panel/panelFeed';
import { WebviewMessage, describeIssue } from '../../core/panel/panelProtocol';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { panelHtml, panelOptions } from './panelHtml';
import { runPanelCommand } from './panelCommands';
import { repoRootOfWorkspace } from './repoRoot';

/**
 * One queue panel: feeds the webview (snapshot, then batched patches) from
 * the project snapshot, the guard log and the scheduler trace, and runs the
 * webview's actions as Switchyard commands. Messages from the webview are
 * validated; a bad one is logged and dropped.
 */
export class QueuePanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private readonly feed: PanelFeed;
  private watcher: vscode.Disposable | undefined;
  private watchedRoot: string | undefined;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly snapshot: ProjectSnapshot,
    private readonly log: vscode.LogOutputChannel,
    onDispose: () => void,
  ) {
    panel.webview.options = panelOptions(extensionUri);
    panel.webview.html = panelHtml(panel.webview, extensionUri);
    this.feed = new PanelFeed({
      read: () => this.read(),
      post: (message) => void this.panel.webview.postMessage(message),
      visible: () => this.panel.visible,
      log: (message) => this.log.warn(message),
    });
    snapshot.panelOpen(true);
    this.subscriptions = [
      snapshot.onDidChange(() => this.feed.changed()),
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => {
        this.dispose();
        onDispose();
      }),
    ];
  }

  reveal(): void {
    this.panel.reveal();
  }

  private async read(): Promise<FeedInput> {
    const recent = await this.snapshot.currentRecent('panel');
    if (!recent) return this.snapshot.error === undefined ? {} : { error: errorMessage(this.snapshot.error) };
    const root = await repoRootOfWorkspace();
    if (root) this.watch(root);
    return { state: recent.state, root, finished: { shown: recent.finished.length, more: recent.more } };
  }

  /** The guard log and the trace change without the state file: watch them too. */
  private watch(root: string): void {
    if (this.watchedRoot === root || this.disposed) return;
    this.watcher?.dispose();
    this.watchedRoot = root;
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(root), '.switchyard/{guards,trace}.jsonl'),
    );
    const changed = (): void => this.feed.changed();
    this.watcher = vscode.Disposable.from(
      watcher,
      watcher.onDidChange(changed),
      watcher.onDidCreate(changed),
      watcher.onDidDelete(changed),
    );
  }

  private receive(raw: unknown): void {
    const parsed = WebviewMessage.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(
        `dropped a malformed message from the queue panel: ${describeIssue(parsed.error)} (${JSON.stringify(raw)?.slice(0, 200)})`,
      );
      return;
    }
    const message = parsed.data;
    if (message.type === 'ready') void this.feed.ready(message.selected);
    else if (message.type === 'select') void this.feed.select(message.taskId ?? undefined);
    // The next page: the snapshot reads again and its change event updates the panel.
    else if (message.type === 'more') void this.snapshot.showMore('panel');
    else void runPanelCommand(message, this.log);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.snapshot.panelOpen(false);
    this.feed.dispose();
    this.watcher?.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.panel.dispose();
  }
}

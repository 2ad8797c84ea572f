import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { panelHtml, panelOptions } from './panelHtml';
import { WebviewMessage } from './panelProtocol';
import { toPanelMessage } from './toPanelMessage';

/**
 * One queue panel: renders the snapshot in the webview whenever it changes
 * and turns the webview's button clicks into Switchyard commands.
 */
export class QueuePanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly snapshot: ProjectSnapshot,
    onDispose: () => void,
  ) {
    panel.webview.options = panelOptions(extensionUri);
    panel.webview.html = panelHtml(panel.webview, extensionUri);
    this.subscriptions = [
      snapshot.onDidChange(() => this.post()),
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

  private post(): void {
    if (!this.disposed) void this.panel.webview.postMessage(toPanelMessage(this.snapshot.state, this.snapshot.error));
  }

  private receive(raw: unknown): void {
    const parsed = WebviewMessage.safeParse(raw);
    if (!parsed.success) {
      console.warn(`switchyard: ignored a malformed message from the queue panel: ${parsed.error.message}`);
      return;
    }
    const message = parsed.data;
    if (message.type === 'ready') {
      void this.snapshot.current().then(() => this.post());
      return;
    }
    const args = message.taskId === undefined ? [] : [message.taskId];
    // The command shows its own errors; nothing more to do with a rejection here.
    vscode.commands.executeCommand(COMMANDS[message.command], ...args).then(undefined, () => undefined);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.panel.dispose();
  }
}

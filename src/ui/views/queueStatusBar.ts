import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { COMMANDS } from '../commandIds';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { queueCounts } from '../project/queueCounts';
import { plainText } from '../../core/text/plainText';

/**
 * `$(rocket) Switchyard: N running, M queued`; a click opens the queue panel; the tooltip names the backend (or why the
 * project cannot be opened).
 */
export class QueueStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('switchyard.queue', vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly snapshot: ProjectSnapshot) {
    this.item.name = 'Switchyard Queue';
    this.item.command = COMMANDS.openQueuePanel;
    this.subscriptions = [this.item, snapshot.onDidChange(() => this.render())];
    this.render();
    this.item.show();
    void snapshot.current();
  }

  private render(): void {
    const { running, queued } = queueCounts(this.snapshot.state);
    this.item.text = `$(rocket) Switchyard: ${running} running, ${queued} queued`;
    const error = this.snapshot.error;
    const backend = this.snapshot.backend;
    const where = backend ? `\nBackend: ${backend.description}` : '';
    this.item.tooltip =
      error === undefined ? `Open the Switchyard queue panel${where}` : plainText(`Switchyard: ${errorMessage(error)}`);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

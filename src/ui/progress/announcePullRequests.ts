import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { showMessage } from '../views/showMessage';
import { PullRequestEvents, pullRequestEventText } from './pullRequestEvents';

const OPEN = 'Open Pull Request';

/**
 * Notifications about the tasks' pull requests, from the state changes the window observes (its own runs, the CLI,
 * another window, a worker): an information message when a PR merges, a warning naming the required check that
 * failed; both offer Open Pull Request. Each event is announced once (see PullRequestEvents).
 */
export class PullRequestAnnouncer implements vscode.Disposable {
  private readonly events = new PullRequestEvents();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly snapshot: ProjectSnapshot) {
    this.subscription = snapshot.onDidChange(() => this.check());
  }

  private check(): void {
    const state = this.snapshot.state;
    if (!state) return;
    for (const event of this.events.observe(state)) {
      const kind = event.kind === 'merged' ? 'info' : 'warning';
      void showMessage(kind, pullRequestEventText(event), OPEN).then((picked) => {
        if (picked === OPEN) void vscode.commands.executeCommand(COMMANDS.openPullRequest, event.taskId);
      });
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

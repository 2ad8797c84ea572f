import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import type { ProjectHost } from '../project/projectHost';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { showMessage } from '../views/showMessage';
import { type PullRequestEvent, PullRequestEvents, pullRequestEventText } from './pullRequestEvents';

const OPEN = 'Open Pull Request';
/** VS Code's Git: Pull and Git: Fetch (the built-in git extension), with the user's own git credentials. */
const GIT_PULL = 'git.pull';
const GIT_FETCH = 'git.fetch';

/**
 * Notifications about the tasks' pull requests, from the state changes the window observes (its own runs, the CLI,
 * another window, a worker): an information message when a PR merges, a warning naming the required check that
 * failed; both offer Open Pull Request. A merge is the task's DONE notification (announceRunFinished and the
 * finished-elsewhere notice leave such a task to it): the change is on the remote base already, so it offers Pull
 * <base> (VS Code's Git: Pull when the folder is on that branch), not a local merge. Each event is announced once
 * (see PullRequestEvents).
 */
export class PullRequestAnnouncer implements vscode.Disposable {
  private readonly events = new PullRequestEvents();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly snapshot: ProjectSnapshot,
    private readonly host: ProjectHost,
  ) {
    this.subscription = snapshot.onDidChange(() => this.check());
  }

  private check(): void {
    const state = this.snapshot.state;
    if (!state) return;
    for (const event of this.events.observe(state)) {
      const kind = event.kind === 'merged' ? 'info' : 'warning';
      const pull = event.kind === 'merged' ? pullLabel(event.base) : undefined;
      void showMessage(kind, pullRequestEventText(event), OPEN, ...(pull ? [pull] : [])).then((picked) => {
        if (picked === OPEN) void vscode.commands.executeCommand(COMMANDS.openPullRequest, event.taskId);
        if (picked === pull && event.kind === 'merged') void this.pull(event);
      });
    }
  }

  /**
   * Pull <base>: VS Code's Git: Pull when the folder has the base checked out; on another branch, what to do instead
   * (a pull would bring the wrong branch), with Fetch.
   */
  private async pull(event: Extract<PullRequestEvent, { kind: 'merged' }>): Promise<void> {
    const project = await this.host.get();
    const branch = await project.branches.current();
    if (branch === event.base) {
      await vscode.commands.executeCommand(GIT_PULL);
      return;
    }
    const where = branch ? `on ${branch}` : 'at a detached HEAD';
    const fetch = 'Fetch';
    const picked = await showMessage(
      'info',
      `Switchyard: pull request #${event.number} was merged into ${event.base} on the remote; this folder is ${where}: check out ${event.base} and pull to get it here.`,
      fetch,
    );
    if (picked === fetch) await vscode.commands.executeCommand(GIT_FETCH);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** The follow-up button of a merge: `Pull main`. */
export function pullLabel(base: string): string {
  return `Pull ${base}`;
}

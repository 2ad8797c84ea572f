import * as vscode from 'vscode';
import { VIEWS } from '../commandIds';
import type { ProjectHost } from '../project/projectHost';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { showMessage } from '../views/showMessage';
import { FinishedElsewhereRuns, finishedElsewhereText } from './finishedElsewhere';

const SHOW = 'Show Tasks';

/**
 * Tasks that another Switchyard process (another window, a terminal, a worker) finished: one notification per batch,
 * each task once, and a badge on the Tasks view counting them until the view is looked at. This window's own runs are
 * announced as they end (announceRunFinished).
 */
export class FinishedElsewhereAnnouncer implements vscode.Disposable {
  private readonly runs = new FinishedElsewhereRuns();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  private unseen = 0;
  private owner: string | undefined;
  /** Whether the Tasks view is on screen: news then needs no badge. */
  viewVisible = false;

  /** Fires when the badge changes. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly snapshot: ProjectSnapshot,
    host: ProjectHost,
  ) {
    this.subscription = snapshot.onDidChange(() => {
      // The owner of this window's runs, once the project is open (the snapshot opened it).
      host.get().then(
        (project) => {
          this.owner = project.owner;
          this.check();
        },
        () => undefined,
      );
    });
  }

  /** The Tasks view's badge: how many tasks finished elsewhere since the view was last on screen. */
  badge(): vscode.ViewBadge | undefined {
    if (!this.unseen) return undefined;
    return { value: this.unseen, tooltip: `${this.unseen} task(s) finished in another Switchyard process` };
  }

  /** The Tasks view came on screen: the badge goes. */
  seen(): void {
    if (!this.unseen) return;
    this.unseen = 0;
    this.changed.fire();
  }

  private check(): void {
    const state = this.snapshot.state;
    if (!state) return;
    const news = this.runs.observe(state, this.owner);
    if (!news.length) return;
    if (!this.viewVisible) {
      this.unseen += news.length;
      this.changed.fire();
    }
    const failed = news.some((n) => n.state === 'FAILED');
    void showMessage(failed ? 'warning' : 'info', finishedElsewhereText(news), SHOW).then((picked) => {
      // VS Code's own command for every view: `<view id>.focus`.
      if (picked === SHOW) void vscode.commands.executeCommand(`${VIEWS.tasks}.focus`);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

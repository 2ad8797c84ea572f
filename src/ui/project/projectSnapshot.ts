import * as vscode from 'vscode';
import { FINISHED_PAGE, FinishedWindow, finishedSlice, type RecentState } from '../../core/panel/finishedWindow';
import type { ProjectState } from '../../core/project/project';
import { SETTINGS } from '../commandIds';
import { type LoadedGuardEvents, loadGuardEvents } from '../../core/report/guardStatusLines';
import type { ProjectHost } from './projectHost';
import { errorMessage } from '../../core/errors';

const COALESCE_MS = 50;

/** The views that page through the finished tasks, each with its own window. */
export type FinishedView = 'tree' | 'panel';

/** How many finished tasks the Tasks tree shows at first (`switchyard.tree.finishedShown`). */
export function treeFinishedShown(): number {
  return vscode.workspace.getConfiguration(SETTINGS.section).get<number>(SETTINGS.treeFinishedShown, FINISHED_PAGE);
}

/**
 * The latest project state as the views show it: read from the store when the
 * host reports a change (bursts coalesced), one read at a time. The tree, the
 * status bar and the panel all render from here, so they agree. A read holds the
 * unfinished tasks and only the newest finished ones, as many as the views page
 * to (the tree's window, and the panel's while one is open), never the whole history.
 */
export class ProjectSnapshot implements vscode.Disposable {
  private latest: RecentState | undefined;
  private readonly windows: Record<FinishedView, FinishedWindow> = {
    tree: new FinishedWindow(treeFinishedShown()),
    panel: new FinishedWindow(FINISHED_PAGE),
  };
  private panels = 0;
  private guardLog: LoadedGuardEvents = { events: [] };
  private configIgnored: readonly string[] = [];
  private failure: unknown;
  private backendInfo: { kind: string; description: string } | undefined;
  private loaded = false;
  private reading: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];

  readonly onDidChange = this.changed.event;

  constructor(private readonly host: ProjectHost) {
    this.subscriptions = [
      this.changed,
      host.onDidChange(() => this.schedule()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(`${SETTINGS.section}.${SETTINGS.treeFinishedShown}`)) return;
        if (this.windows.tree.setPage(treeFinishedShown())) void this.reload();
      }),
    ];
  }

  /**
   * The last state read (the unfinished tasks and the newest finished ones the views show), or undefined before the
   * first read or when the project cannot be opened.
   */
  get state(): ProjectState | undefined {
    return this.latest?.state;
  }

  /** What `view` shows of the last read: the unfinished tasks and its window of the newest finished ones. */
  recent(view: FinishedView): RecentState | undefined {
    return this.latest && finishedSlice(this.latest, this.windows[view].shown);
  }

  /** `recent(view)`, read once on first use. */
  async currentRecent(view: FinishedView): Promise<RecentState | undefined> {
    if (!this.loaded) await this.reload();
    return this.recent(view);
  }

  /** How many finished tasks `view` shows now, and its page. */
  window(view: FinishedView): { shown: number; page: number } {
    return { shown: this.windows[view].shown, page: this.windows[view].page };
  }

  /** `view` shows one page more of the finished tasks: read again, then the views render. */
  async showMore(view: FinishedView): Promise<RecentState | undefined> {
    this.windows[view].showMore();
    await this.reload();
    return this.recent(view);
  }

  /** A queue panel opened (true) or closed: while one is open, reads cover its window too. */
  panelOpen(open: boolean): void {
    const before = this.finishedToRead();
    this.panels = Math.max(0, this.panels + (open ? 1 : -1));
    if (this.loaded && this.finishedToRead() > before) void this.reload();
  }

  /** The recorded guard verdicts as of the last read (and why they could not be read, if so). */
  get guards(): LoadedGuardEvents {
    return this.guardLog;
  }

  /** Where the project's state lives as of the last read (`files` or `postgres`, and a description without secrets). */
  get backend(): { kind: string; description: string } | undefined {
    return this.backendInfo;
  }

  /** What of `.switchyard/config.json` is ignored (one message a key); the rest of it applies. */
  get configProblems(): readonly string[] {
    return this.configIgnored;
  }

  /** Why the project could not be opened or read, if it could not. */
  get error(): unknown {
    return this.failure;
  }

  /** The state, read once on first use; later calls return what the last read saw. */
  async current(): Promise<ProjectState | undefined> {
    if (!this.loaded) await this.reload();
    return this.state;
  }

  /** Reads the state now (waits for a read in flight, then reads again) and returns it. */
  async reload(): Promise<ProjectState | undefined> {
    if (this.reading !== undefined) {
      this.again = true;
      await this.reading;
      // The read in flight may have ended before it saw the request: read again.
      return this.again ? this.reload() : this.state;
    }
    this.reading = this.readLoop();
    try {
      await this.reading;
    } finally {
      this.reading = undefined;
    }
    return this.state;
  }

  /** How many finished tasks a read takes: the largest window of a view that shows now. */
  private finishedToRead(): number {
    return Math.max(this.windows.tree.shown, this.panels > 0 ? this.windows.panel.shown : 0);
  }

  private async readLoop(): Promise<void> {
    do {
      this.again = false;
      try {
        const project = await this.host.get();
        this.backendInfo = project.backendInfo;
        this.latest = await project.recentState(this.finishedToRead());
        this.guardLog = await loadGuardEvents(project.root);
        this.configIgnored = await project.settings.configProblems().catch((error) => [errorMessage(error)]);
        this.failure = undefined;
      } catch (error) {
        this.latest = undefined;
        this.backendInfo = undefined;
        this.configIgnored = [];
        this.failure = error;
      }
      this.loaded = true;
    } while (this.again);
    this.changed.fire();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, COALESCE_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}

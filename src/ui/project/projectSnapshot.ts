import * as vscode from 'vscode';
import type { ProjectState } from '../../core/store/projectState';
import type { GuardEvent } from '../../core/guards/guardLog';
import { loadGuardEvents } from '../../core/guards/guardStatusLines';
import type { ProjectHost } from './projectHost';

const COALESCE_MS = 50;

/**
 * The latest project state as the views show it: read from the store when the
 * host reports a change (bursts coalesced), one read at a time. The tree, the
 * status bar and the panel all render from here, so they agree.
 */
export class ProjectSnapshot implements vscode.Disposable {
  private latest: ProjectState | undefined;
  private guardEvents: GuardEvent[] = [];
  private guardError: string | undefined;
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
    this.subscriptions = [this.changed, host.onDidChange(() => this.schedule())];
  }

  /** The last state read, or undefined before the first read or when the project cannot be opened. */
  get state(): ProjectState | undefined {
    return this.latest;
  }

  /** The recorded guard verdicts as of the last read (and why they could not be read, if so). */
  get guards(): { events: readonly GuardEvent[]; error?: string } {
    return { events: this.guardEvents, error: this.guardError };
  }

  /** Where the project's state lives as of the last read (`files` or `postgres`, and a description without secrets). */
  get backend(): { kind: string; description: string } | undefined {
    return this.backendInfo;
  }

  /** Why the project could not be opened or read, if it could not. */
  get error(): unknown {
    return this.failure;
  }

  /** The state, read once on first use; later calls return what the last read saw. */
  async current(): Promise<ProjectState | undefined> {
    if (!this.loaded) await this.reload();
    return this.latest;
  }

  /** Reads the state now (waits for a read in flight, then reads again) and returns it. */
  async reload(): Promise<ProjectState | undefined> {
    if (this.reading !== undefined) {
      this.again = true;
      await this.reading;
      // The read in flight may have ended before it saw the request: read again.
      return this.again ? this.reload() : this.latest;
    }
    this.reading = this.readLoop();
    try {
      await this.reading;
    } finally {
      this.reading = undefined;
    }
    return this.latest;
  }

  private async readLoop(): Promise<void> {
    do {
      this.again = false;
      try {
        const project = await this.host.get();
        this.backendInfo = project.backendInfo;
        this.latest = await project.state();
        const guards = await loadGuardEvents(project.root, 500);
        this.guardEvents = guards.events;
        this.guardError = guards.error;
        this.failure = undefined;
      } catch (error) {
        this.latest = undefined;
        this.backendInfo = undefined;
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

import { isStage } from '../model/stages';
import type { ProjectState } from '../store/projectState';
import { plainTextDeep } from '../text/plainTextDeep';
import { buildPanelView } from './buildPanelView';
import { diffPanelView, indexView, type ViewIndex } from './diffPanelView';
import type { HostMessage } from './panelProtocol';
import { PanelSourceReader } from './panelSourceReader';
import { buildTaskDetail, loadDetailInputs } from './taskDetail';

/** Updates within this many milliseconds go out as one patch. */
export const BATCH_MS = 100;
/** While the selected task is in progress its history is read again this often. */
export const DETAIL_REFRESH_MS = 2_000;

export interface FeedInput {
  state?: ProjectState;
  /** The repository root (for the guard log, the trace, run logs). */
  root?: string;
  /** Why there is no state (the project cannot be opened or read); undefined while loading. */
  error?: string;
  /** `state` holds only the `shown` newest finished tasks (`more`: older ones exist); absent: every task. */
  finished?: { shown: number; more: boolean };
}

export interface PanelFeedOptions {
  read(): Promise<FeedInput> | FeedInput;
  post(message: HostMessage): void;
  /** False while the webview is hidden (it reloads and says `ready` when shown again). */
  visible?(): boolean;
  batchMs?: number;
  now?(): number;
  /** Where problems go (a bad read of the guard log, a failed detail read). */
  log?(message: string): void;
}

/**
 * The host side of the panel, without VS Code: turns "something changed"
 * into messages. Changes are coalesced for `batchMs` (longer when a rebuild
 * is slow: at most a fifth of the time goes to rebuilding); then the view is built
 * again from the state, the guard log and the trace (read incrementally), and
 * only its difference from the last view sent goes out as a patch. A webview
 * that (re)loads says `ready` and gets a snapshot. The selected task's
 * history goes out when it changed. Every string in a message is made
 * plain text (plainText) on the way out.
 */
export class PanelFeed {
  private index: ViewIndex | undefined;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private detailTimer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;
  private again = false;
  private selected: string | undefined;
  private lastDetail: string | undefined;
  private lastError: string | undefined;
  private reader: PanelSourceReader | undefined;
  private disposed = false;
  /**
   * How long the last rebuild took: a slow one (a huge queue) stretches the batch window, so the host stays mostly
   * idle.
   */
  private lastBuildMs = 0;
  /** Messages posted, by type (for tests and the benchmark). */
  readonly posted = { snapshot: 0, patch: 0, detail: 0, error: 0 };

  constructor(private readonly options: PanelFeedOptions) {}

  /** The webview (re)loaded: next flush sends a snapshot, at once. */
  ready(selected?: string): Promise<void> {
    this.index = undefined;
    this.lastError = undefined;
    this.selected = selected;
    this.lastDetail = undefined;
    return this.flushNow();
  }

  select(taskId: string | undefined): Promise<void> {
    this.selected = taskId;
    this.lastDetail = undefined;
    return this.flushNow();
  }

  /** Something may have changed: flush within `batchMs`. */
  changed(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.flushNow();
      },
      Math.max(this.options.batchMs ?? BATCH_MS, Math.min(2_000, this.lastBuildMs * 4)),
    );
  }

  /** Flushes now (after a flush in flight, once more). */
  flushNow(): Promise<void> {
    if (this.flushing !== undefined) {
      this.again = true;
      return this.flushing;
    }
    const loop = async (): Promise<void> => {
      try {
        do {
          this.again = false;
          await this.flush().catch((error: unknown) =>
            this.options.log?.(`queue panel update failed: ${(error as Error).stack ?? String(error)}`),
          );
        } while (this.again && !this.disposed);
      } finally {
        // In the same turn as the last check of `again`: a request made after it starts a new loop.
        this.flushing = undefined;
      }
    };
    this.flushing = loop();
    return this.flushing;
  }

  private async flush(): Promise<void> {
    if (this.disposed || (this.options.visible && !this.options.visible())) return;
    const input = await this.options.read();
    const { state, root } = input;
    if (!state || !root) {
      const message = input.error ?? 'Loading the Switchyard project…';
      if (message !== this.lastError) this.post({ type: 'error', message });
      this.lastError = message;
      this.index = undefined;
      return;
    }
    this.lastError = undefined;
    if (this.reader?.root !== root) this.reader = new PanelSourceReader(root);
    await this.reader.refresh();
    const now = this.options.now?.() ?? Date.now();
    const started = performance.now();
    const sources = this.reader.sources();
    const view = buildPanelView(state, root, input.finished ? { ...sources, finished: input.finished } : sources, now);
    if (!this.index) {
      this.index = indexView(view);
      this.post({ type: 'snapshot', seq: ++this.seq, view });
    } else {
      const diff = diffPanelView(this.index, view);
      this.index = diff.index;
      if (!diff.empty) {
        const base = this.seq;
        this.post({ type: 'patch', seq: ++this.seq, base, ...diff.patch });
      }
    }
    this.lastBuildMs = performance.now() - started;
    await this.sendDetail(state, root);
  }

  private async sendDetail(state: ProjectState, root: string): Promise<void> {
    if (this.detailTimer) clearTimeout(this.detailTimer);
    this.detailTimer = undefined;
    const taskId = this.selected;
    if (!taskId) return;
    let message: HostMessage;
    try {
      const inputs = await loadDetailInputs(root, state, taskId);
      const detail = buildTaskDetail(state, taskId, { ...inputs, ...this.reader!.sources() });
      message = { type: 'detail', taskId, detail: detail ?? null };
      const task = state.tasks.find((t) => t.id === taskId);
      if (task && isStage(task.state) && !this.disposed)
        this.detailTimer = setTimeout(() => this.changed(), DETAIL_REFRESH_MS);
    } catch (error) {
      this.options.log?.(`could not read the history of task ${taskId}: ${(error as Error).message}`);
      message = { type: 'detail', taskId, detail: null, problem: (error as Error).message };
    }
    const text = JSON.stringify(message);
    if (text === this.lastDetail || taskId !== this.selected) return;
    this.lastDetail = text;
    this.post(message);
  }

  /**
   * Every message leaves as plain text: no escape sequence, control or bidi character from a lane, a task or a remote
   * reaches the webview.
   */
  private post(message: HostMessage): void {
    this.posted[message.type] += 1;
    this.options.post(plainTextDeep(message));
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.detailTimer) clearTimeout(this.detailTimer);
  }
}

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { STATE_FILE, stateFilePath } from '../../core/project/stateFilePath';
import { SETTINGS } from '../commandIds';
import type { QueueStatusSource } from '../views/queueStatusBar';
import type { QueueCounts } from './queueCounts';
import { readStateFile } from './stateFileCounts';

/**
 * The status bar's source at activation, before the project is opened: the task states in the folder's
 * `.switchyard/state.json`, read as plain JSON (counts and the menus' context keys, no schema, nothing else of the
 * store), and read again
 * when the file changes. When it cannot tell (another backend, a shape it does not know, no folder, no state
 * file in a folder that is not a repository's top) it calls `unreadable` once, so the
 * caller opens the project instead; until then it shows zeros.
 */
export class StateFileStatus implements QueueStatusSource, vscode.Disposable {
  private latest: QueueCounts = { running: 0, awaitingCi: 0, queued: 0 };
  private gaveUp = false;
  private disposed = false;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [this.changed];
  private readonly file: string;

  readonly onDidChange = this.changed.event;

  constructor(
    folder: vscode.WorkspaceFolder | undefined,
    private readonly unreadable: () => void,
  ) {
    this.file = folder ? stateFilePath(folder.uri.fsPath) : '';
    const backend = vscode.workspace.getConfiguration(SETTINGS.section, folder).get<string>(SETTINGS.backend);
    if (!folder || (backend && backend !== 'files')) {
      queueMicrotask(() => this.giveUp());
      return;
    }
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, STATE_FILE));
    const reread = (): void => void this.read();
    this.subscriptions.push(watcher, watcher.onDidChange(reread), watcher.onDidCreate(reread));
    reread();
  }

  counts(): QueueCounts {
    return this.latest;
  }

  error(): unknown {
    return undefined;
  }

  backendDescription(): string | undefined {
    return undefined;
  }

  private async read(): Promise<void> {
    const read = await readFile(this.file, 'utf8').then(readStateFile, (error: NodeJS.ErrnoException) =>
      // No state file yet in a repository's own folder: no tasks. Elsewhere the project may live further up.
      error.code === 'ENOENT' && this.folderIsRepository()
        ? { counts: { running: 0, awaitingCi: 0, queued: 0 }, contextKeys: {} }
        : undefined,
    );
    if (this.gaveUp || this.disposed) return;
    if (read === undefined) {
      this.giveUp();
      return;
    }
    this.latest = read.counts;
    // The palette's when clauses (Show Run Diff once there is a run, …) hold before the rest of the extension loads.
    for (const [key, value] of Object.entries(read.contextKeys))
      void vscode.commands.executeCommand('setContext', key, value);
    this.changed.fire();
  }

  private folderIsRepository(): boolean {
    return existsSync(join(dirname(dirname(this.file)), '.git'));
  }

  private giveUp(): void {
    if (this.gaveUp) return;
    this.gaveUp = true;
    this.unreadable();
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
  }
}

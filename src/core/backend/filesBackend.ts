import { watch, type FSWatcher } from 'node:fs';
import type { Disposable } from '../model/disposable';
import { ProjectStore } from './projectStore';
import type { Backend } from './backend';
import { FilesJournalStore } from './filesJournalStore';
import { FilesLeaseStore } from './filesLeaseStore';
import { migratedError, readMigratedMarker } from './migratedMarker';

/**
 * The embedded default: the working set in `state.json`, the finished tasks in the append-only `history/`, lease
 * files and JSONL journals under `<repo>/.switchyard/`, no server.
 */
export class FilesBackend implements Backend {
  readonly kind = 'files' as const;
  readonly description: string;
  readonly leases: FilesLeaseStore;
  readonly journals: FilesJournalStore;
  private readonly watchers = new Set<FSWatcher>();

  private constructor(readonly state: ProjectStore) {
    this.description = `files in ${state.dir}`;
    this.leases = new FilesLeaseStore(state.repoRoot, (fn) => state.withLock(fn));
    this.journals = new FilesJournalStore(state.repoRoot);
  }

  /** Opens the files backend; a project migrated to PostgreSQL refuses (no silent second copy of the queue). */
  static async open(root: string): Promise<FilesBackend> {
    const marker = await readMigratedMarker(root);
    if (marker) throw migratedError(root, marker);
    return new FilesBackend(await ProjectStore.open(root));
  }

  watch(listener: () => void): Disposable {
    // state.json is replaced by a rename on every write: watch its folder.
    const watcher = watch(this.state.dir, { persistent: false }, (_event, name) => {
      if (name === 'state.json') listener();
    });
    watcher.on('error', () => undefined);
    this.watchers.add(watcher);
    return {
      dispose: () => {
        watcher.close();
        this.watchers.delete(watcher);
      },
    };
  }

  async close(): Promise<void> {
    for (const watcher of this.watchers) watcher.close();
    this.watchers.clear();
  }
}

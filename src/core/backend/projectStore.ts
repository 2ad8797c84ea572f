import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Low } from 'lowdb';
import lockfile from 'proper-lockfile';
import { SwitchyardError } from '../errors';
import { AtomicJsonFile } from '../store/atomicJsonFile';
import { ProjectState, STATE_VERSION, emptyProjectState } from '../store/projectState';
import { STATE_DIR, ensureStateDir } from '../store/stateDir';
import type { StateStore } from './stateStore';
import type { LeaseView } from '../lease/leaseStore';
import { filesLeaseView } from './filesLeaseStore';

export { STATE_DIR };

/**
 * The project's small mutable state (settings, tasks, runs) in one lowdb
 * document under `<repo>/.switchyard/state.json`. Every change is a locked
 * read-modify-write, so a VS Code window and a CLI on the same repository do
 * not lose each other's updates.
 */
export class ProjectStore implements StateStore {
  readonly dir: string;
  readonly file: string;
  private readonly db: Low<ProjectState>;

  private constructor(readonly repoRoot: string) {
    this.dir = join(repoRoot, STATE_DIR);
    this.file = join(this.dir, 'state.json');
    this.db = new Low(new AtomicJsonFile(this.file, ProjectState, { version: STATE_VERSION }), emptyProjectState());
  }

  /** Opens (and on first use creates) the store; a corrupt state file is an error, never overwritten. */
  static async open(repoRoot: string): Promise<ProjectStore> {
    const store = new ProjectStore(repoRoot);
    await ensureStateDir(repoRoot);
    if (!(await exists(store.file))) {
      await store.locked(async () => {
        if (!(await exists(store.file))) await store.db.adapter.write(emptyProjectState());
      });
    }
    await store.read();
    return store;
  }

  /** A fresh copy of the state from disk. */
  async read(): Promise<ProjectState> {
    await this.db.read();
    return structuredClone(this.db.data);
  }

  /** Applies `change` to the latest state under the lock and writes it atomically (unless it changed nothing). */
  async update<T>(change: (state: ProjectState, leases: LeaseView) => T): Promise<T> {
    return this.locked(async () => {
      await this.db.read();
      const draft = structuredClone(this.db.data);
      const result = change(draft, filesLeaseView(this.repoRoot));
      // Nothing changed: nothing is written, the revision stays (watchers are not woken for nothing).
      // A deep compare stops at the first difference, where serializing both would cost two whole documents.
      if (isDeepStrictEqual(draft, this.db.data)) return result;
      draft.revision = (draft.revision ?? 0) + 1;
      const checked = ProjectState.safeParse(draft);
      if (!checked.success) {
        throw new SwitchyardError(
          'invalid-input',
          `refusing to store an invalid state: ${checked.error.issues[0]?.path.join('.')}: ` +
            `${checked.error.issues[0]?.message}`,
        );
      }
      this.db.data = checked.data;
      await this.db.write();
      return result;
    });
  }

  /** Runs `fn` under the store's lock without touching the state (leases use it). */
  withLock<T>(fn: () => T): Promise<T> {
    return this.locked(async () => fn());
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(this.dir, {
        lockfilePath: join(this.dir, 'state.lock'),
        realpath: false,
        stale: 10_000,
        retries: { retries: 200, minTimeout: 5, maxTimeout: 100, factor: 1.5 },
      });
    } catch (error) {
      throw new SwitchyardError('store-locked', `could not lock ${this.file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

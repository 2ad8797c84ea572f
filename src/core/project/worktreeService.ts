import {
  listSalvage,
  promoteSalvage,
  type PromoteOptions,
  type Promotion,
  type SalvageEntry,
} from '../workspace/promoteSalvage';
import { listWorktrees, removeWorktree, type WorktreeInfo } from '../workspace/worktrees';
import { measureWorktreeUsage, readWorktreeUsage, type WorktreeUsage } from '../workspace/worktreeUsage';
import type { ProjectCore } from './projectCore';

export type { PromoteOptions, Promotion, SalvageEntry } from '../workspace/promoteSalvage';
export type { WorktreeInfo } from '../workspace/worktrees';
export type { WorktreeUsage } from '../workspace/worktreeUsage';

/** `project.worktrees`: the runs' worktrees (listed, cleaned, measured) and the work salvaged from failed runs. */
export class WorktreeService {
  constructor(private readonly core: ProjectCore) {}

  list(): Promise<WorktreeInfo[]> {
    return listWorktrees(this.core.root);
  }

  /** Removes the worktrees of runs that are no longer running; their branches and diffs stay. */
  async clean(): Promise<string[]> {
    const state = await this.core.store.read();
    const busy = new Set(
      state.runs.filter((r) => r.state === 'RUNNING').flatMap((r) => [r.worktree, `${r.worktree}.review`]),
    );
    const removed: string[] = [];
    for (const wt of await listWorktrees(this.core.root)) {
      if (busy.has(wt.path)) continue;
      await removeWorktree(this.core.root, wt.path);
      removed.push(wt.path);
    }
    await measureWorktreeUsage(this.core.root).catch(() => undefined);
    return removed;
  }

  /** How many worktrees exist now, and their size as measured by the last drain or clean (absent when unknown). */
  usage(): Promise<WorktreeUsage> {
    return readWorktreeUsage(this.core.root);
  }

  /** Runs whose partial work was salvaged, newest first. */
  salvaged(): Promise<SalvageEntry[]> {
    return listSalvage({ root: this.core.root, store: this.core.store });
  }

  /** Puts a run's salvaged work on a branch of the user's; the working tree is never touched. */
  promoteSalvage(runId: string, options: PromoteOptions = {}): Promise<Promotion> {
    return promoteSalvage({ root: this.core.root, store: this.core.store }, runId, options);
  }
}

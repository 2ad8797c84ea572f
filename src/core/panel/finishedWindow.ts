import type { ProjectState } from '../store/projectState';

/** How many finished tasks the queue panel shows at first, and how many more each "Show more" adds. */
export const FINISHED_PAGE = 50;

/** The unfinished tasks and the newest finished ones, with their runs, as `Project.recentState` reads them. */
export interface RecentState {
  state: ProjectState;
  /** The ids of the finished tasks `state` holds, newest first. */
  finished: readonly string[];
  /** Older finished tasks exist that `state` does not hold. */
  more: boolean;
}

/**
 * What one view shows of `recent`: every unfinished task and the `shown` newest finished ones, with their runs;
 * `more` when older finished tasks are left out (by this cut or already by the read).
 */
export function finishedSlice(recent: RecentState, shown: number): RecentState {
  if (recent.finished.length <= shown) return recent;
  const dropped = new Set(recent.finished.slice(shown));
  return {
    state: {
      ...recent.state,
      tasks: recent.state.tasks.filter((t) => !dropped.has(t.id)),
      runs: recent.state.runs.filter((r) => !dropped.has(r.taskId)),
    },
    finished: recent.finished.slice(0, shown),
    more: true,
  };
}

/**
 * How many finished tasks a view shows: a first page, then one page more per `showMore()`. A new page size
 * (the setting changed) starts over at one page.
 */
export class FinishedWindow {
  private pageSize: number;
  private count: number;

  constructor(page = FINISHED_PAGE) {
    this.pageSize = validPage(page);
    this.count = this.pageSize;
  }

  get shown(): number {
    return this.count;
  }

  get page(): number {
    return this.pageSize;
  }

  /** One page more; the new count. */
  showMore(): number {
    this.count += this.pageSize;
    return this.count;
  }

  /** Whether the window changed. */
  setPage(page: number): boolean {
    const size = validPage(page);
    if (size === this.pageSize) return false;
    this.pageSize = size;
    this.count = size;
    return true;
  }
}

function validPage(page: number): number {
  return Number.isFinite(page) && page >= 1 ? Math.floor(page) : FINISHED_PAGE;
}

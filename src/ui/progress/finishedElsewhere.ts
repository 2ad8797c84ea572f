import { landedByPullRequest } from '../../core/model/taskPullRequest';
import type { Run } from '../../core/model/run';
import type { ProjectState } from '../../core/project/project';

/** A run that ended a task (DONE or FAILED) in another Switchyard process: what the window tells the user once. */
export interface FinishedElsewhere {
  taskId: string;
  title: string;
  state: 'DONE' | 'FAILED';
  runId: string;
}

/**
 * Which runs ended their task in another process since the last look: a run SUCCEEDED or FAILED whose task is DONE or
 * FAILED with it as its last run, and whose owner is not `owner` (this window's project; its own runs are announced as
 * they end). The first state seen is only the baseline: what ended before the window looked is not news. Each run is
 * reported once.
 */
export class FinishedElsewhereRuns {
  private seen: Set<string> | undefined;

  observe(state: ProjectState, owner: string | undefined): FinishedElsewhere[] {
    const ended = state.runs.filter((r) => r.state === 'SUCCEEDED' || r.state === 'FAILED');
    if (!this.seen) {
      this.seen = new Set(ended.map((r) => r.id));
      return [];
    }
    const news: FinishedElsewhere[] = [];
    const tasks = new Map(state.tasks.map((t) => [t.id, t]));
    for (const run of ended) {
      if (this.seen.has(run.id)) continue;
      const task = tasks.get(run.taskId);
      // Not yet the task's end (a retry follows): looked at again on the next change.
      if (!task || (task.state !== 'DONE' && task.state !== 'FAILED') || task.lastRunId !== run.id) continue;
      this.seen.add(run.id);
      // A change landed through a pull request is announced by its merge (PullRequestAnnouncer), wherever it ran.
      if (ranHere(run, owner) || landedByPullRequest(task)) continue;
      news.push({ taskId: task.id, title: task.spec.title, state: task.state, runId: run.id });
    }
    return news;
  }
}

function ranHere(run: Run, owner: string | undefined): boolean {
  return owner !== undefined && run.owner === owner;
}

/** One line for the notification: `t3 · Fix the parser DONE, t4 · Tidy FAILED`. */
export function finishedElsewhereText(news: readonly FinishedElsewhere[]): string {
  const list = news.map((n) => `${n.taskId} · ${n.title} ${n.state}`).join(', ');
  return `Switchyard: ${list} (finished in another Switchyard process: another window, a terminal or a worker).`;
}

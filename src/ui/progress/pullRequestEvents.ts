import { landedByPullRequest, taskPullRequest } from '../../core/model/taskPullRequest';
import type { ProjectState } from '../../core/project/project';

/** Something to tell the user about a task's pull request. */
export type PullRequestEvent =
  | {
      kind: 'merged';
      taskId: string;
      title: string;
      number: number;
      url: string;
      /** The branch it was merged into (on the remote). */
      base: string;
      mergeCommit?: string;
    }
  | {
      kind: 'check-failed';
      taskId: string;
      title: string;
      number: number;
      url: string;
      check: { name: string; conclusion?: string };
    };

/**
 * What changed in the tasks' pull requests between the states the window saw: a PR merged, a required check failed.
 * Each event has a key (the PR's URL; for a check also the head commit and the check's name), and each key is
 * reported once: a refresh, a re-read or another window's write that changes nothing new reports nothing. The first
 * state seen only sets the baseline (what was merged or failing before the window opened is not news).
 */
export class PullRequestEvents {
  private readonly seen = new Set<string>();
  private primed = false;

  observe(state: ProjectState): PullRequestEvent[] {
    const found: { key: string; event: PullRequestEvent }[] = [];
    for (const task of state.tasks) {
      const base = { taskId: task.id, title: task.spec.title };
      for (const run of state.runs) {
        const pr = run.taskId === task.id ? run.pullRequest : undefined;
        if (!pr) continue;
        if (pr.state === 'merged')
          found.push({
            key: `merged ${pr.url}`,
            event: {
              kind: 'merged',
              ...base,
              number: pr.number,
              url: pr.url,
              base: pr.base,
              ...(pr.mergeCommit ? { mergeCommit: pr.mergeCommit } : {}),
            },
          });
        for (const check of pr.checks ?? []) {
          if (check.state !== 'failure') continue;
          found.push({
            key: `failed ${pr.url} ${pr.headSha ?? run.id} ${check.name}`,
            event: {
              kind: 'check-failed',
              ...base,
              number: pr.number,
              url: pr.url,
              check: { name: check.name, ...(check.conclusion ? { conclusion: check.conclusion } : {}) },
            },
          });
        }
      }
      const landed = task.integration;
      const merged = landed?.pullRequest;
      if (landed && merged && landedByPullRequest(task)) {
        const pr = taskPullRequest(task, state.runs);
        found.push({
          key: `merged ${merged.url}`,
          event: {
            kind: 'merged',
            ...base,
            number: merged.number,
            url: merged.url,
            base: landed.branch,
            ...(pr?.mergeCommit ? { mergeCommit: pr.mergeCommit } : {}),
          },
        });
      }
    }
    const fresh: PullRequestEvent[] = [];
    for (const { key, event } of found) {
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      if (this.primed) fresh.push(event);
    }
    this.primed = true;
    return fresh;
  }
}

/** The notification's text for an event (untrusted parts go through the notification text filter later). */
export function pullRequestEventText(event: PullRequestEvent): string {
  const name = `${event.taskId} · ${event.title}`;
  if (event.kind === 'merged') {
    const commit = event.mergeCommit ? ` (merge commit ${event.mergeCommit.slice(0, 12)})` : '';
    return `Switchyard: ${name} is DONE: pull request #${event.number} was merged into ${event.base}${commit}.`;
  }
  const conclusion = event.check.conclusion ? ` (${event.check.conclusion})` : '';
  return `Switchyard: ${name}: required check "${event.check.name}" failed${conclusion} on pull request #${event.number}.`;
}

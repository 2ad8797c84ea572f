import { isSwitchyardError } from '../../core/errors';
import { landedByPullRequest, taskPullRequest } from '../../core/model/taskPullRequest';
import type { ProjectState } from '../../core/project/project';
import { CONTEXT_KEYS as PULL_REQUEST_KEYS } from '../commandIds';

/** The context keys the `when` clauses of package.json read, so menus offer only the commands that apply. */
export const CONTEXT_KEYS = {
  canaryActive: 'switchyard.canaryActive',
  hasSalvage: 'switchyard.hasSalvage',
  hasDoneTask: 'switchyard.hasDoneTask',
  hasRun: 'switchyard.hasRun',
  /**
   * The runs whose change a person may still take or drop: each DONE task's change that is neither merged, discarded
   * nor landed by a pull request. The diff editor of one of them (`switchyard-changes:/<run>`) shows Merge and Discard.
   */
  reviewableRuns: 'switchyard.reviewableRuns',
  /** Some task's pull request is open: Close Pull Request shows in the palette. */
  hasOpenPullRequest: 'switchyard.hasOpenPullRequest',
  /** Some task is a DRAFT: Approve Task shows in the palette. */
  hasDraft: 'switchyard.hasDraft',
  /** The folder is not inside a git repository: the welcome view offers Initialize Repository. */
  notGitRepo: 'switchyard.notGitRepo',
} as const;

/** What each context key is for a state (undefined when unread) and the error it could not be read with. */
export function contextValues(state: ProjectState | undefined, error: unknown): Record<string, boolean | string[]> {
  return {
    [CONTEXT_KEYS.canaryActive]: state?.routing.canary !== undefined,
    [CONTEXT_KEYS.hasSalvage]: state?.runs.some((r) => r.salvage) ?? false,
    [CONTEXT_KEYS.hasDoneTask]: state?.tasks.some((t) => t.state === 'DONE') ?? false,
    [CONTEXT_KEYS.hasRun]: (state?.runs.length ?? 0) > 0,
    [CONTEXT_KEYS.reviewableRuns]: state ? reviewableRuns(state) : [],
    [CONTEXT_KEYS.hasDraft]: state?.tasks.some((t) => t.state === 'DRAFT') ?? false,
    [CONTEXT_KEYS.notGitRepo]: isSwitchyardError(error, 'not-a-git-repo'),
    [CONTEXT_KEYS.hasOpenPullRequest]:
      state?.tasks.some((t) => taskPullRequest(t, state.runs)?.state === 'open') ?? false,
    [PULL_REQUEST_KEYS.hasPullRequest]: state?.tasks.some((t) => taskPullRequest(t, state.runs) !== undefined) ?? false,
  };
}

/** The run standing for each DONE task's change that is still to be merged or discarded (see reviewableRuns above). */
export function reviewableRuns(state: ProjectState): string[] {
  return state.tasks.flatMap((t) => {
    const runId = t.integration?.runId ?? t.lastRunId;
    const open = t.state === 'DONE' && !t.merged && !t.discarded && !landedByPullRequest(t);
    return open && runId ? [runId] : [];
  });
}

import type { RequiredCheckRecord } from '../../core/model/pullRequestRecord';
import type { Run } from '../../core/model/run';
import type { Task } from '../../core/model/task';
import type { TaskPullRequest } from '../../core/model/taskPullRequest';
import type { TaskState } from '../../core/model/taskStates';

/** A top-level node: one task state that has tasks. */
export class StateNode {
  readonly kind = 'state';
  constructor(
    readonly state: TaskState,
    readonly tasks: readonly Task[],
    /** A finished state while the tree shows only this many of the newest finished tasks. */
    readonly ofNewestFinished?: number,
  ) {}
}

/** A task under its state; its children are its runs. */
export class TaskNode {
  readonly kind = 'task';
  constructor(
    readonly task: Task,
    /** The lane the next run would use: the task's override or the project default. */
    readonly lane: string,
    readonly runs: readonly Run[],
    /** The task's pull request (pull-request mode): a row above its runs. */
    readonly pullRequest?: TaskPullRequest,
    /** What it waits for, one line each (taskWaits), for its tooltip. */
    readonly waits: readonly string[] = [],
  ) {}
}

/** A task's pull request; its children are the required checks. */
export class PullRequestNode {
  readonly kind = 'pull-request';
  constructor(
    readonly taskId: string,
    readonly pullRequest: TaskPullRequest,
  ) {}
}

/** One check the pull request's base requires, with its state. */
export class CheckNode {
  readonly kind = 'check';
  constructor(
    readonly taskId: string,
    readonly pullRequest: TaskPullRequest,
    readonly check: RequiredCheckRecord,
  ) {}
}

/** One run (attempt) of a task. */
export class RunNode {
  readonly kind = 'run';
  /** `guards`: one line per guard that judged this run (latest verdict, evidence, counts). */
  constructor(
    readonly run: Run,
    readonly guards: readonly string[] = [],
  ) {}
}

/** The last top-level row while older finished tasks are not shown: its command shows the next page. */
export class MoreFinishedNode {
  readonly kind = 'more-finished';
  constructor(
    /** How many finished tasks the tree shows now. */
    readonly shown: number,
    /** How many more the command adds. */
    readonly page: number,
  ) {}
}

/** The first row while `.switchyard/config.json` has keys that are ignored: it opens the file. */
export class ConfigProblemNode {
  readonly kind = 'config-problem';
  constructor(
    /** One message per ignored key, naming the file and the field. */
    readonly problems: readonly string[],
  ) {}
}

export type TaskTreeNode =
  | StateNode
  | TaskNode
  | RunNode
  | PullRequestNode
  | CheckNode
  | MoreFinishedNode
  | ConfigProblemNode;

/** True for the elements the Tasks tree hands to its context-menu commands. */
export function isTaskTreeNode(value: unknown): value is TaskTreeNode {
  return (
    value instanceof StateNode ||
    value instanceof TaskNode ||
    value instanceof RunNode ||
    value instanceof PullRequestNode ||
    value instanceof CheckNode ||
    value instanceof MoreFinishedNode ||
    value instanceof ConfigProblemNode
  );
}

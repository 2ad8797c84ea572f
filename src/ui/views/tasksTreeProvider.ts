import * as vscode from 'vscode';
import { errorMessage, isSwitchyardError } from '../../core/errors';
import { TASK_STATES, type TaskState } from '../../core/model/taskStates';
import type { Task } from '../../core/model/task';
import type { ArchivedTasks } from './archivedTasks';
import type { TaskFilterState } from './taskFilterState';
import { filterDescription, isFiltering } from './taskFilter';
import { type WaitFacts, taskWaitLines, waitFacts } from '../../core/report/taskWaits';
import type { ProjectState } from '../../core/project/project';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { toTreeItem } from './taskTreeItems';
import {
  CheckNode,
  ConfigProblemNode,
  MoreFinishedNode,
  PullRequestNode,
  RunNode,
  StateNode,
  TaskNode,
  type TaskTreeNode,
} from './taskTreeNodes';
import { FINISHED_TASK_STATES } from '../../core/model/taskStates';
import { taskPullRequest } from '../../core/model/taskPullRequest';
import { guardStatusLines } from '../../core/report/guardStatusLines';
import {
  isPipelineTreeNode,
  pipelineChildren,
  pipelineNodes,
  pipelineTreeItem,
  type PipelineTreeNode,
} from './pipelineTreeItems';

import {
  isRestrictedModeNode,
  type RestrictedModeNode,
  restrictedModeNodes,
  restrictedModeTreeItem,
} from './restrictedModeRow';

type TreeNode = TaskTreeNode | PipelineTreeNode | RestrictedModeNode;

/**
 * The Tasks tree: a Pipeline row (stage WIP usage, backpressure, breakers),
 * then states that have tasks → tasks → (the task's pull request → its required checks) and runs, rendered from the
 * project snapshot and refreshed whenever it changes.
 */
export class TasksTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  private readonly subscriptions: vscode.Disposable[];
  /** The waits of the state the rows were last made from (see waitFactsOf). */
  private waits: { state: ProjectState; facts: WaitFacts } | undefined;

  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly snapshot: ProjectSnapshot,
    private readonly archived: ArchivedTasks,
    private readonly filter: TaskFilterState,
  ) {
    this.subscriptions = [
      this.changed,
      snapshot.onDidChange(() => this.changed.fire(undefined)),
      archived.onDidChange(() => this.changed.fire(undefined)),
      filter.onDidChange(() => this.changed.fire(undefined)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire(undefined)),
    ];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (isRestrictedModeNode(node)) return restrictedModeTreeItem();
    return isPipelineTreeNode(node) ? pipelineTreeItem(node) : toTreeItem(node);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      const recent = await this.snapshot.currentRecent('tree');
      const state = recent?.state;
      const { shown, page } = this.snapshot.window('tree');
      const more = recent?.more ? [new MoreFinishedNode(Math.min(shown, recent.finished.length), page)] : [];
      const problems = this.snapshot.configProblems;
      const rows = [
        ...(problems.length ? [new ConfigProblemNode(problems)] : []),
        ...pipelineNodes(state),
        ...stateNodes(state, recent?.more ? recent.finished.length : undefined, (t) => this.hides(t, state)),
        ...more,
      ];
      // An empty tree shows the welcome view, which says the same in Restricted Mode (package.json viewsWelcome).
      return rows.length ? [...restrictedModeNodes(), ...rows] : rows;
    }
    if (isRestrictedModeNode(node)) return [];
    if (node.kind === 'pipeline') return pipelineChildren(node, this.snapshot.guards);
    if (node.kind === 'pipeline-detail') return [];
    if (node.kind === 'state')
      return node.tasks.map((task) => this.taskNode(task.id)).filter((n): n is TaskNode => n !== undefined);
    if (node.kind === 'task') {
      const runs = node.runs.map((run) => new RunNode(run, guardStatusLines(this.snapshot.guards.events, run.id)));
      return node.pullRequest ? [new PullRequestNode(node.task.id, node.pullRequest), ...runs] : runs;
    }
    if (node.kind === 'pull-request')
      return node.pullRequest.checks.map((check) => new CheckNode(node.taskId, node.pullRequest, check));
    return [];
  }

  /** The view's description: the filter in force ("Filter: FAILED · “parser”"), or none. */
  description(): string | undefined {
    return filterDescription(this.filter.current);
  }

  /** Whether the tree leaves `task` out: archived by Clear Finished, or not matching the filter. */
  private hides(task: Task, state: ProjectState | undefined): boolean {
    return this.archived.hides(task) || !this.filter.shows(task, task.spec.lane ?? state?.settings.defaultLane ?? '');
  }

  /**
   * The message shown above the tree: why the project could not be opened, or what of `.switchyard/config.json` is
   * ignored (the tree's first row, Open Project Config, opens it); then the filter in force and how many tasks it
   * shows (VS Code does not show a view's description while it is the only view of its container).
   */
  message(): string | undefined {
    const lines = [this.problemMessage(), this.filterMessage()].filter((l) => l !== undefined);
    return lines.length ? lines.join('\n') : undefined;
  }

  private problemMessage(): string | undefined {
    const problems = this.snapshot.configProblems;
    if (problems.length && this.snapshot.error === undefined) {
      const n = problems.length;
      return `.switchyard/config.json: ${n} setting${n === 1 ? ' is' : 's are'} ignored (the defaults apply, the other settings work): ${problems.map((p) => p.replace(/^.*?config\.json: /, '')).join('; ')}`;
    }
    // A folder outside git gets the welcome view's text and its Initialize Repository link instead: VS Code hides a
    // tree view's welcome content while the view has a message.
    if (this.snapshot.error === undefined || isSwitchyardError(this.snapshot.error, 'not-a-git-repo')) return undefined;
    return errorMessage(this.snapshot.error);
  }

  /** "Filter: READY · “parser” (1 of 3 tasks shown): Clear Filter in the view's title shows them all." */
  private filterMessage(): string | undefined {
    const state = this.snapshot.state;
    if (this.snapshot.error !== undefined || !state || !isFiltering(this.filter.current)) return undefined;
    const total = state.tasks.filter((t) => !this.archived.hides(t)).length;
    const shown = state.tasks.filter((t) => !this.hides(t, state)).length;
    const what = shown ? `${shown} of ${total} tasks shown` : `no task of ${total} matches`;
    return `${this.description()} (${what}): Clear Filter in the view's title shows them all.`;
  }

  /** Rows handed out before the latest refresh as the tree shows them now: a task row current, a gone task left out. */
  currentRows(rows: readonly unknown[]): unknown[] {
    return rows.flatMap((row) => (row instanceof TaskNode ? (this.taskNode(row.task.id) ?? []) : [row]));
  }

  private taskNode(taskId: string): TaskNode | undefined {
    const state = this.snapshot.state;
    const task = state?.tasks.find((t) => t.id === taskId);
    if (!state || !task) return undefined;
    const runs = state.runs
      .filter((r) => r.taskId === task.id)
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id, undefined, { numeric: true }));
    const lane = task.spec.lane ?? state.settings.defaultLane;
    return new TaskNode(
      task,
      lane,
      runs,
      taskPullRequest(task, runs),
      taskWaitLines(task, state, Date.now(), this.waitFactsOf(state)),
    );
  }

  /** The waits of a state, computed once for all its rows. */
  private waitFactsOf(state: ProjectState): WaitFacts {
    if (this.waits?.state !== state) this.waits = { state, facts: waitFacts(state) };
    return this.waits.facts;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/**
 * The tree's order of the states: the work in flight in lifecycle order, then what needs a person (failures and
 * blocks) before what is DONE or CANCELED.
 */
const TREE_ORDER: readonly TaskState[] = [
  ...TASK_STATES.filter((s) => !['DONE', 'CANCELED', 'FAILED', 'BLOCKED', 'CHANGES_REQUESTED'].includes(s)),
  'FAILED',
  'BLOCKED',
  'CHANGES_REQUESTED',
  'DONE',
  'CANCELED',
];

/**
 * One node per task state that has tasks, in the tree's order (failures before DONE); tasks by number.
 * `finishedShown`: the state holds only that many of the newest finished tasks (their states' counts say so).
 * `hidden`: tasks Clear Finished archived from the tree.
 */
export function stateNodes(
  state: ProjectState | undefined,
  finishedShown?: number,
  hidden: (task: Task) => boolean = () => false,
): StateNode[] {
  if (!state) return [];
  const byNumber = [...state.tasks]
    .filter((t) => !hidden(t))
    .sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }));
  return TREE_ORDER.map(
    (s) =>
      new StateNode(
        s,
        byNumber.filter((t) => t.state === s),
        FINISHED_TASK_STATES.has(s) ? finishedShown : undefined,
      ),
  ).filter((n) => n.tasks.length > 0);
}

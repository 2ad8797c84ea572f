import * as vscode from 'vscode';
import { CONTEXT_KEYS, VIEWS } from '../commandIds';
import { taskPullRequest } from '../../core/model/taskPullRequest';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { TasksTreeProvider } from './tasksTreeProvider';
import type { TaskTreeNode } from './taskTreeNodes';
import type { PipelineTreeNode } from './pipelineTreeItems';

/**
 * The `switchyard.tasks` tree view, with a message when the project cannot be opened. Keeps the
 * `switchyard.hasPullRequest` context key (Open Pull Request in the palette) in step with the tasks.
 */
export class TasksView implements vscode.Disposable {
  private readonly provider: TasksTreeProvider;
  private readonly view: vscode.TreeView<TaskTreeNode | PipelineTreeNode>;
  private readonly subscriptions: vscode.Disposable[];
  private hasPullRequest = false;

  constructor(snapshot: ProjectSnapshot) {
    this.provider = new TasksTreeProvider(snapshot);
    this.view = vscode.window.createTreeView(VIEWS.tasks, { treeDataProvider: this.provider, showCollapseAll: true });
    this.subscriptions = [
      this.provider,
      this.view,
      snapshot.onDidChange(() => {
        this.view.message = this.provider.message();
        const state = snapshot.state;
        const has = !!state?.tasks.some((t) => taskPullRequest(t, state.runs));
        if (has !== this.hasPullRequest) {
          this.hasPullRequest = has;
          void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.hasPullRequest, has);
        }
      }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

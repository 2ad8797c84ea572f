import * as vscode from 'vscode';
import { VIEWS } from '../commandIds';
import type { ProjectSnapshot } from '../project/projectSnapshot';
import { TasksTreeProvider } from './tasksTreeProvider';
import type { TaskTreeNode } from './taskTreeNodes';
import type { PipelineTreeNode } from './pipelineTreeItems';

/** The `switchyard.tasks` tree view, with a message when the project cannot be opened. */
export class TasksView implements vscode.Disposable {
  private readonly provider: TasksTreeProvider;
  private readonly view: vscode.TreeView<TaskTreeNode | PipelineTreeNode>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(snapshot: ProjectSnapshot) {
    this.provider = new TasksTreeProvider(snapshot);
    this.view = vscode.window.createTreeView(VIEWS.tasks, { treeDataProvider: this.provider, showCollapseAll: true });
    this.subscriptions = [
      this.provider,
      this.view,
      snapshot.onDidChange(() => {
        this.view.message = this.provider.message();
      }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

import * as vscode from 'vscode';
import { VIEWS } from '../commandIds';
import type { RuntimeLoader } from '../runtimeLoader';

/**
 * The `switchyard.tasks` tree view, registered at activation; its rows come from the runtime's tree provider, loaded
 * when the view first asks for them. Shows a message when the project cannot be opened, and the filter in force as
 * the view's description.
 */
export class TasksView implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<unknown>();
  private readonly view: vscode.TreeView<unknown>;
  private readonly subscriptions: vscode.Disposable[];
  private selected: readonly unknown[] = [];

  constructor(runtime: RuntimeLoader) {
    const provider: vscode.TreeDataProvider<unknown> = {
      onDidChangeTreeData: this.changed.event,
      getChildren: (node) => runtime.get().tree.getChildren(node as never),
      getTreeItem: (node) => runtime.get().tree.getTreeItem(node as never),
    };
    this.view = vscode.window.createTreeView(VIEWS.tasks, { treeDataProvider: provider, showCollapseAll: true });
    this.subscriptions = [
      this.changed,
      this.view,
      // Kept from the event: the view's own `selection` is empty while a refresh has its rows' handles forgotten.
      this.view.onDidChangeSelection(({ selection }) => {
        this.selected = selection;
      }),
      runtime.onDidLoad(({ tree, status, finishedElsewhere }) => {
        const describe = (): void => {
          this.view.message = tree.message();
          this.view.description = tree.description();
        };
        describe();
        finishedElsewhere.viewVisible = this.view.visible;
        this.subscriptions.push(
          tree.onDidChangeTreeData((node) => {
            this.changed.fire(node);
            describe();
          }),
          status.onDidChange(describe),
          // Tasks finished in another process: a badge until the view is on screen.
          finishedElsewhere.onDidChange(() => {
            this.view.badge = finishedElsewhere.badge();
          }),
          this.view.onDidChangeVisibility(({ visible }) => {
            finishedElsewhere.viewVisible = visible;
            if (visible) finishedElsewhere.seen();
          }),
        );
      }),
    ];
  }

  /**
   * The selected rows as the last selection event gave them (rows of an earlier refresh: map them to the current ones
   * with TasksTreeProvider.currentRows), none while the view is not on screen.
   */
  get selection(): readonly unknown[] {
    return this.view.visible ? this.selected : [];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

import * as vscode from 'vscode';
import { FINISHED_TASK_STATES } from '../../core/model/taskStates';
import type { Task } from '../../core/model/task';

const ARCHIVED_BEFORE = 'switchyard.tree.archivedBefore';
const SHOWING_ARCHIVED = 'switchyard.showingArchived';

/**
 * Clear Finished's mark, kept in this workspace's state: the finished tasks (DONE, FAILED, CANCELED) that had ended
 * when it was set leave the Tasks tree. Nothing is deleted: they stay in the project's history (the queue panel,
 * `switchyard status`), and Show Archived Tasks brings them back. A task that runs again after the mark (a retry)
 * shows again.
 */
export class ArchivedTasks implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private showing = false;

  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    void vscode.commands.executeCommand('setContext', SHOWING_ARCHIVED, false);
  }

  /** Archives every finished task of `tasks` as of now; returns how many left the tree. */
  async clearFinished(tasks: readonly Task[]): Promise<number> {
    const finished = tasks.filter((t) => FINISHED_TASK_STATES.has(t.state) && !this.isArchived(t));
    if (!finished.length) return 0;
    // ISO times sort as text: the newest end among them (and the old mark) is the new mark.
    const latest = [this.mark() ?? '', ...finished.map((t) => t.updatedAt)].sort().at(-1)!;
    await this.memento.update(ARCHIVED_BEFORE, latest);
    await this.show(false);
    return finished.length;
  }

  /** True for a finished task that ended before the mark (whether or not the tree shows archived tasks now). */
  isArchived(task: Task): boolean {
    const mark = this.mark();
    return mark !== undefined && FINISHED_TASK_STATES.has(task.state) && task.updatedAt <= mark;
  }

  /** Whether the tree leaves `task` out now. */
  hides(task: Task): boolean {
    return !this.showing && this.isArchived(task);
  }

  async show(showing: boolean): Promise<void> {
    this.showing = showing;
    await vscode.commands.executeCommand('setContext', SHOWING_ARCHIVED, showing);
    this.changed.fire();
  }

  private mark(): string | undefined {
    return this.memento.get<string>(ARCHIVED_BEFORE);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

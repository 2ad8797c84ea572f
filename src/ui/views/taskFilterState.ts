import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { NO_FILTER, isFiltering, readTaskFilter, taskMatches, type TaskFilter } from './taskFilter';

const FILTER_KEY = 'switchyard.tree.filter';
/** Context key: the Tasks view filters (its title shows Clear Filter). */
export const FILTERED_CONTEXT = 'switchyard.tasksFiltered';

/** The Tasks view's filter (states, lanes, text), kept in this workspace's state across reloads. */
export class TaskFilterState implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private filter: TaskFilter;

  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    this.filter = readTaskFilter(memento.get(FILTER_KEY));
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT, isFiltering(this.filter));
  }

  get current(): TaskFilter {
    return this.filter;
  }

  /** Whether the tree shows `task`, whose next run would use `lane`. */
  shows(task: Task, lane: string): boolean {
    return taskMatches(this.filter, task, lane);
  }

  async set(filter: TaskFilter): Promise<void> {
    this.filter = filter;
    await this.memento.update(FILTER_KEY, isFiltering(filter) ? filter : undefined);
    await vscode.commands.executeCommand('setContext', FILTERED_CONTEXT, isFiltering(filter));
    this.changed.fire();
  }

  clear(): Promise<void> {
    return this.set(NO_FILTER);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

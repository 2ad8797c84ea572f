import * as vscode from 'vscode';
import { RunNode, TaskNode } from '../views/taskTreeNodes';
import { describeArg } from './commandArgs';
import { runIdOfChangesUri } from './showRunDiff';

/**
 * The task or run id in a take-the-change command's argument: an id, a tree element, `{runId}` / `{taskId}`, or the
 * uri of a run's changes editor (its title's Merge and Discard).
 */
export function takeChangeId(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) {
    const runId = runIdOfChangesUri(arg);
    if (runId) return runId;
    throw new Error("expected a task or run, got a file: Merge and Discard work in a Switchyard run's diff editor");
  }
  if (arg instanceof RunNode) return arg.run.id;
  if (arg instanceof TaskNode) return arg.task.id;
  if (typeof arg === 'string') return arg.trim() || undefined;
  if (arg && typeof arg === 'object') {
    const { runId, taskId } = arg as Record<string, unknown>;
    if (typeof runId === 'string') return runId;
    if (typeof taskId === 'string') return taskId;
  }
  if (arg === undefined || arg === null) return undefined;
  throw new Error(`expected a task or run id, or a task or run item, got ${describeArg(arg)}`);
}

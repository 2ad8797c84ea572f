import * as vscode from 'vscode';
import type { Task, TaskSpecInput } from '../../core/model/task';
import { describeArg } from './commandArgs';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.newTask({title, spec?, files?, lane?, acceptance?, dependsOn?, priority?})` → the created Task.
 * Without an argument it opens a task document (an untitled Markdown editor: the title on the first line, the
 * instruction below it, as long as needed), submitted with Submit Task, which asks the lane, the target files (the
 * file of the editor New Task was started from ticked) and Submit or Submit & Run; it then resolves to undefined. The
 * core validates the spec.
 */
export async function newTask(deps: CommandDeps, arg?: unknown): Promise<Task | undefined> {
  if (arg === undefined) {
    const active = vscode.window.activeTextEditor?.document;
    const origin = active && active.uri.scheme === 'file' && !deps.taskDocuments.has(active) ? active.uri : undefined;
    await deps.taskDocuments.create(origin);
    return undefined;
  }
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg)) {
    throw new Error(`New Task expects an object like {"title": "…", "spec": "…"}; got ${describeArg(arg)}`);
  }
  return (await deps.host.get()).tasks.add(arg as TaskSpecInput);
}

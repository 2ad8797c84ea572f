import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { parseTaskDocument } from '../../core/model/taskDocument';
import { hostLanes, pickLane } from '../prompts/pickLane';
import { showMessage } from '../views/showMessage';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.submitTaskDocument()` → the created Task. Reads the active task document (see New Task): the first
 * line is the title, kept whole, the rest the instruction; asks the lane, adds the task READY, and closes the
 * document without asking to save it.
 */
export async function submitTaskDocument(deps: CommandDeps): Promise<Task> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !deps.taskDocuments.has(editor.document)) {
    throw new Error('Submit Task works on a task document: run "Switchyard: New Task" and write the task in it');
  }
  const document = editor.document;
  const { title, spec } = parseTaskDocument(document.getText());
  const project = await deps.host.get();
  const { settings } = await project.state();
  const lane = await pickLane(hostLanes(deps.host), `Lane for "${title}"`, settings.defaultLane);
  const task = await project.addTask({ title, spec, lane });
  deps.taskDocuments.forget(document);
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  void showMessage('info', `Switchyard: ${task.id} · ${task.spec.title} is ${task.state} on ${lane}.`);
  return task;
}

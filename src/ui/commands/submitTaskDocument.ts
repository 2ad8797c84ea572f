import * as vscode from 'vscode';
import type { Task } from '../../core/model/task';
import { parseTaskDocument } from '../../core/model/taskDocument';
import { runOnSend } from '../config/switchyardConfig';
import { startTaskRun } from '../progress/startTaskRun';
import { hostLanes, pickLane } from '../prompts/pickLane';
import { pickSubmitMode, pickTargetFiles } from '../prompts/pickTargetFiles';
import { showMessage } from '../views/showMessage';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.submitTaskDocument()` → the created Task. Reads the active task document (see New Task): the first
 * line is the title, kept whole, the rest the instruction; asks the lane, the target files (optional; the file of the
 * editor New Task was started from is ticked) and Submit or Submit & Run; adds the task READY, closes the document
 * without asking to save it, and with Submit & Run starts the task at once as Send to Lane does (the returned Task is
 * as stored once its run started).
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
  const files = await pickTargetFiles(project.root, title, deps.taskDocuments.origin(document));
  const mode = await pickSubmitMode(title, runOnSend());
  const task = await project.tasks.add({ title, spec, lane, files });
  deps.taskDocuments.forget(document);
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  if (mode === 'run') return startTaskRun(project, task, deps.shutdown);
  void showMessage('info', `Switchyard: ${task.id} · ${task.spec.title} is ${task.state} on ${lane}.`);
  return task;
}

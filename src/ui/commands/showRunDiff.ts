import * as vscode from 'vscode';
import { pickRun } from '../prompts/pickRun';
import { runIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';
import { runDiffUri } from '../views/runDiffProvider';
import { showMessage } from '../views/showMessage';

/** `switchyard.showRunDiff(runId | item)` → the diff text, also opened as a read-only `diff` document. */
export async function showRunDiff(deps: CommandDeps, arg?: unknown): Promise<string> {
  const project = await deps.host.get();
  const runId = runIdFrom(arg) ?? (await pickRun(await project.state(), 'Show the diff of which run?'));
  const diff = await project.diff(runId);
  const document = await vscode.workspace.openTextDocument(runDiffUri(runId));
  await vscode.window.showTextDocument(document, { preview: true });
  if (!diff) void showMessage('info', `Switchyard: run ${runId} changed nothing.`);
  return document.getText();
}

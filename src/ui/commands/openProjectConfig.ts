import * as vscode from 'vscode';
import { ensureConfigFile } from '../../core/project/configFile';
import { resolveRepoRoot } from '../../core/project/repositoryRoot';
import type { CommandDeps } from './commandDeps';

/**
 * `switchyard.openProjectConfig()` → the file's path: opens the committed `.switchyard/config.json` of the project,
 * creating it as `{"version": 1}` when missing. The schema (contributed with `jsonValidation`) gives completion,
 * hovers and squiggles.
 */
export async function openProjectConfig(_deps: CommandDeps): Promise<string> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('Switchyard needs an open folder: open a folder inside a git repository first.');
  const root = await resolveRepoRoot(folder.uri.fsPath);
  const file = await ensureConfigFile(root);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(document);
  return file;
}

import * as vscode from 'vscode';
import { CONFIG_VERSION, configPath, writeProjectConfig } from '../../core/store/projectConfig';
import { resolveRepoRoot } from '../../core/workspace/gitRepo';
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
  const file = configPath(root);
  const exists = await vscode.workspace.fs.stat(vscode.Uri.file(file)).then(
    () => true,
    () => false,
  );
  if (!exists) await writeProjectConfig(root, { version: CONFIG_VERSION });
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(document);
  return file;
}

import * as vscode from 'vscode';
import { resolveRepoRoot } from '../../core/project/repositoryRoot';

let cached: { folder: string; root: Promise<string | undefined> } | undefined;

/** The git root of the first workspace folder (as the project host opens it), or undefined when there is none. */
export function repoRootOfWorkspace(): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) return Promise.resolve(undefined);
  if (cached?.folder !== folder) cached = { folder, root: resolveRepoRoot(folder).catch(() => undefined) };
  return cached.root;
}

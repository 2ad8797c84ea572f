import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunChanges } from '../../core/project/runService';
import { pickRun } from '../prompts/pickRun';
import { runIdFrom } from './commandArgs';
import type { CommandDeps } from './commandDeps';
import { runFileUri } from '../views/runFileProvider';
import { showMessage } from '../views/showMessage';

/**
 * `switchyard.showRunDiff(runId | item)` → the run's diff text. Opens VS Code's diff editor on the run's change: the
 * multi-file changes view (`vscode.changes`), each file the task's base on the left and the run's commit on the right;
 * where that command is missing, one `vscode.diff` per file. A run that changed nothing says so and opens nothing.
 */
export async function showRunDiff(deps: CommandDeps, arg?: unknown): Promise<string> {
  const project = await deps.host.get();
  const runId = runIdFrom(arg) ?? (await pickRun(await project.state(), 'Show the diff of which run?'));
  const changes = await project.runs.changes(runId);
  const diff = await project.runs.diff(runId).catch(() => '');
  if (!changes.head || changes.files.length === 0) {
    const why = changes.head ? 'changed nothing' : 'has no change: it ended before its work was committed';
    void showMessage('info', `Switchyard: run ${runId} ${why}.`);
    return diff;
  }
  await openRunChanges(project.root, changes);
  return diff;
}

/** The scheme of a run's multi-file diff editor (`switchyard-changes:/<run id>`), read by its title's actions. */
export const RUN_CHANGES_SCHEME = 'switchyard-changes';

/** The identity of a run's changes editor: opening it again shows the same editor; its title menus get this uri. */
export function runChangesUri(runId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_CHANGES_SCHEME, path: `/${runId}` });
}

/** The run id of a run's changes editor uri, or undefined for any other uri. */
export function runIdOfChangesUri(uri: vscode.Uri): string | undefined {
  return uri.scheme === RUN_CHANGES_SCHEME ? uri.path.replace(/^\//, '') || undefined : undefined;
}

/**
 * Opens a run's changed files in the diff editor; resolves once it is open. The multi-file diff editor is opened with
 * the run's own source uri (runChangesUri), so its title carries Merge and Discard for a DONE task's change (menus
 * `editor/title`, `resourceScheme == switchyard-changes`); an editor without that command gets `vscode.changes`, and
 * one without either a diff editor per file.
 */
export async function openRunChanges(root: string, changes: RunChanges): Promise<void> {
  const head = changes.head ?? changes.base;
  const resources = changes.files.map(
    (f) => [vscode.Uri.file(join(root, f.path)), runFileUri(changes.base, f.path), runFileUri(head, f.path)] as const,
  );
  const count = changes.files.length;
  // The changes view adds the file count to the title itself.
  const title = `Switchyard: ${changes.runId} on ${changes.branch}`;
  const missing = (error: unknown, command: string): boolean => String(error).includes(command);
  try {
    await vscode.commands.executeCommand('_workbench.openMultiDiffEditor', {
      multiDiffSourceUri: runChangesUri(changes.runId),
      title,
      resources: resources.map(([, left, right]) => ({ originalUri: left, modifiedUri: right })),
    });
    return;
  } catch (error) {
    if (!missing(error, '_workbench.openMultiDiffEditor')) throw error;
  }
  try {
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    return;
  } catch (error) {
    // An editor without the multi-file changes view: one diff editor per file.
    if (!missing(error, 'vscode.changes')) throw error;
  }
  for (const [file, left, right] of resources) {
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      `${changes.runId}: ${vscode.workspace.asRelativePath(file)}`,
      { preview: count === 1 },
    );
  }
}

import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunChanges } from '../../core/workspace/runChanges';
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
  const changes = await project.runChanges(runId);
  const diff = await project.diff(runId).catch(() => '');
  if (!changes.head || changes.files.length === 0) {
    const why = changes.head ? 'changed nothing' : 'has no change: it ended before its work was committed';
    void showMessage('info', `Switchyard: run ${runId} ${why}.`);
    return diff;
  }
  await openRunChanges(project.root, changes);
  return diff;
}

/** Opens a run's changed files in the diff editor; resolves once it is open. */
export async function openRunChanges(root: string, changes: RunChanges): Promise<void> {
  const head = changes.head ?? changes.base;
  const resources = changes.files.map(
    (f) => [vscode.Uri.file(join(root, f.path)), runFileUri(changes.base, f.path), runFileUri(head, f.path)] as const,
  );
  const count = changes.files.length;
  // The changes view adds the file count to the title itself.
  const title = `Switchyard: ${changes.runId} on ${changes.branch}`;
  try {
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    return;
  } catch (error) {
    // An editor without the multi-file changes view: one diff editor per file.
    if (!/vscode\.changes/.test(String(error))) throw error;
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

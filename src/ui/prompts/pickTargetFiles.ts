import { realpath } from 'node:fs/promises';
import { posix, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { plainLine } from '../../core/text/plainText';
import { repoRelativeFile } from '../commands/repoRelativeFile';
import { required } from './promptCanceled';
import { targetFileItems } from './targetFileItems';
import { quickPickText } from './quickPickText';

/** The workspace's files a picker lists at most, and what it leaves out (dependencies, git's and Switchyard's own). */
const MAX_FILES = 5_000;
const EXCLUDE = '**/{node_modules,.git,.switchyard}/**';

/**
 * Asks for a new task's target files (optional): a multi-select QuickPick of the workspace folder's files, as paths
 * relative to the repository root, with `origin` (the editor New Task was started from) ticked. Enter with nothing
 * ticked means none. Escape cancels.
 */
export async function pickTargetFiles(root: string, title: string, origin?: vscode.Uri): Promise<string[]> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const preselected = origin ? await repoRelativeFile(root, origin).catch(() => undefined) : undefined;
  let paths: string[] = [];
  if (folder) {
    const [realRoot, realFolder] = await Promise.all([realpath(root), realpath(folder.uri.fsPath)]);
    const prefix = relative(realRoot, realFolder).split(sep).join('/');
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), EXCLUDE, MAX_FILES);
    paths = files.map((f) => posix.join(prefix, relative(folder.uri.fsPath, f.fsPath).split(sep).join('/')));
  }
  const items = targetFileItems(paths, preselected ? [preselected] : []).map((f) => ({
    label: quickPickText(f.path),
    picked: f.picked,
    path: f.path,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: plainLine(`Target files of "${title}" (optional)`),
    placeHolder: 'Tick the files the task works on, or none; then Enter',
    ignoreFocusOut: true,
  });
  return required(picked).map((p) => p.path);
}

export const SUBMIT = 'Submit';
export const SUBMIT_AND_RUN = 'Submit & Run';

/**
 * How a task document is submitted: Submit (the task is queued; Run Queue starts it) or Submit & Run (queued and
 * started at once, as Send to Lane does). The one `switchyard.runOnSend` makes the default comes first.
 */
export async function pickSubmitMode(title: string, runFirst: boolean): Promise<'queue' | 'run'> {
  const run = { label: SUBMIT_AND_RUN, description: 'queue the task and start it now', mode: 'run' as const };
  const queue = { label: SUBMIT, description: 'queue the task; Run Queue starts it', mode: 'queue' as const };
  const picked = await vscode.window.showQuickPick(runFirst ? [run, queue] : [queue, run], {
    title: plainLine(`Submit "${title}"`),
    placeHolder: 'Submit, or submit and run it now',
    ignoreFocusOut: true,
  });
  return required(picked).mode;
}

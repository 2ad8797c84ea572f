import * as vscode from 'vscode';
import { STATE_FILE_GLOB } from '../commandIds';

const DEBOUNCE_MS = 150;

/**
 * Watches `<repo>/.switchyard/state.json`, so changes another process makes
 * (the CLI in a terminal, another window) show up. The store writes by
 * temp file + rename, which arrives as create/change bursts: debounced.
 */
export function watchStateFile(repoRoot: string, onChange: () => void, debounceMs = DEBOUNCE_MS): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(repoRoot), STATE_FILE_GLOB));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, debounceMs);
  };
  const subscriptions = [watcher, watcher.onDidChange(schedule), watcher.onDidCreate(schedule), watcher.onDidDelete(schedule)];
  return new vscode.Disposable(() => {
    if (timer) clearTimeout(timer);
    for (const s of subscriptions) s.dispose();
  });
}

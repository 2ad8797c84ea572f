import * as vscode from 'vscode';
import type { Project } from '../../core/project';

const DEBOUNCE_MS = 150;

/**
 * Calls `onChange` after another process changed the project's state: on the
 * postgres backend, a window or `switchyard worker` on any machine (LISTEN/
 * NOTIFY, which reconnects by itself). Bursts are debounced, like the state
 * file watcher's.
 */
export function watchExternalChanges(project: Project, onChange: () => void, debounceMs = DEBOUNCE_MS): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const subscription = project.onExternalChange(() => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, debounceMs);
  });
  return new vscode.Disposable(() => {
    if (timer) clearTimeout(timer);
    subscription.dispose();
  });
}

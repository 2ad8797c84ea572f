import * as vscode from 'vscode';
import type { Project } from '../../core/project/project';

const DEBOUNCE_MS = 150;

/**
 * Calls `onChange` after another process changed the project's state,
 * through the backend's change feed: on files, a write of
 * `.switchyard/state.json` (the CLI in a terminal, another window); on
 * postgres, a window or `switchyard worker` on any machine (LISTEN/NOTIFY,
 * which reconnects by itself). Bursts (a write is a temp file and a rename)
 * are debounced.
 */
export function watchExternalChanges(
  project: Project,
  onChange: () => void,
  debounceMs = DEBOUNCE_MS,
): vscode.Disposable {
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

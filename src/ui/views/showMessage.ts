import * as vscode from 'vscode';
import { notificationText } from '../../core/text/notificationText';

export type MessageKind = 'info' | 'warning' | 'error';

/**
 * The one way Switchyard shows a notification. Its text usually holds
 * untrusted parts (a task title, a lane's failure reason, a remote's error):
 * it goes through notificationText, so no `[label](command:…)` in it becomes
 * a link and no escape sequence, control or bidi character reaches the
 * toast. Returns the item picked, like `vscode.window.show*Message`.
 */
export function showMessage(kind: MessageKind, text: string, ...items: string[]): Thenable<string | undefined> {
  const safe = notificationText(text);
  switch (kind) {
    case 'info':
      return vscode.window.showInformationMessage(safe, ...items);
    case 'warning':
      return vscode.window.showWarningMessage(safe, ...items);
    case 'error':
      return vscode.window.showErrorMessage(safe, ...items);
  }
}

/**
 * A modal confirmation with two buttons that say what they do: `confirm` and `keep` (the close affordance: Escape and
 * the dialog's close button mean it, and VS Code adds no "Cancel" beside them). True when `confirm` was picked.
 */
export async function confirmModal(text: string, detail: string, confirm: string, keep: string): Promise<boolean> {
  const picked = await vscode.window.showWarningMessage(
    notificationText(text),
    { modal: true, detail: notificationText(detail) },
    { title: confirm },
    { title: keep, isCloseAffordance: true },
  );
  return picked?.title === confirm;
}

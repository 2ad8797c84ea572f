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
 * A modal question (a confirmation) whose text and detail may hold untrusted parts (a task's title): both go
 * through notificationText, as for a notification. Returns the item picked, or undefined when dismissed.
 */
export function showModal(text: string, detail: string, ...items: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(
    notificationText(text),
    { modal: true, detail: notificationText(detail) },
    ...items,
  );
}

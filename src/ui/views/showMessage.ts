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

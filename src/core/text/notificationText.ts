import { plainLine } from './plainText';

/**
 * Untrusted text for a VS Code notification (showInformationMessage,
 * showWarningMessage, showErrorMessage, a progress notification's message).
 * Notifications do not render Markdown; they turn `[label](target)` into a
 * link when the target starts with `https://`, `http://`, `command:` or
 * `file:` (VS Code's parseLinkedText, `src/vs/base/common/linkedText.ts`,
 * checked against VS Code 1.100.3), and they show backslashes literally, so
 * Markdown escaping would not help. That pattern needs `](` with nothing in
 * between: a space is put between every `]` and `(`, so no link can form and
 * the text still reads the same. The text is made plain and one line first
 * (see plainText).
 */
export function notificationText(text: string): string {
  return plainLine(text).replace(/\]\(/g, '] (');
}

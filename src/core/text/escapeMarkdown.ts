import { plainText } from './plainText';

/**
 * Untrusted text for a surface that renders Markdown (a `vscode.MarkdownString`,
 * a pull request body): shown as the same characters, never as Markdown.
 * The text is made plain first (see plainText), then every ASCII punctuation
 * character CommonMark can give a meaning to is backslash-escaped, so no link
 * (`[x](command:…)`, `<https://…>`), image, HTML tag, entity, emphasis, code
 * span, heading, list or table can form; `:` is escaped too, so a bare
 * `https://…` or `command:…` is not turned into a link by GFM autolinking.
 * Newlines become hard line breaks (a backslash before the newline), so the
 * lines stay lines.
 *
 * Not for VS Code notifications: they do not read Markdown escapes (the
 * backslashes would show); use notificationText there.
 */
export function escapeMarkdown(text: string): string {
  return plainText(text)
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&:"'=$%^@]/g, '\\$&')
    .replace(/\n/g, '\\\n');
}

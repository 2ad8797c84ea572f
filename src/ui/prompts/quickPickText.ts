import { plainLine } from '../../core/text/plainText';

/**
 * Untrusted text for a QuickPick item's label, description or detail: one plain line (plainLine), and every `$(`
 * escaped as VS Code documents (`\$(`), so that text such as a path holding `$(id)` reads as written instead of
 * becoming an icon (or vanishing, for a name that is no icon).
 */
export function quickPickText(text: string): string {
  return plainLine(text).replace(/\$\(/g, '\\$(');
}
